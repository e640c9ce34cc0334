// @ts-check
// The page for an unknown address (notfound.html, served by the server with status 404): its
// words, written in English in the HTML, in the reader's language (i18n.js fills them as it
// loads).

import "./i18n.js";
