// @ts-check
// The page for an unknown address (notfound.html, served by the server with status 404): its
// words, written in English in the HTML, in the reader's language.

import { loadMessages } from "./i18n.js";

await loadMessages();
