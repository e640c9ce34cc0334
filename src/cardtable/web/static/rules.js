// @ts-check
// A tiny Markdown renderer for the rules pages: headings, paragraphs, lists (with wrapped
// continuation lines), tables, fenced code, inline code, bold, italics and links; a card token
// of the plain pages, {{KH}}, becomes an empty <span class="rules-card" data-card="KH"> that
// the page fills with the card's face (rulesmodal.js).
// The text is HTML-escaped first, so the output can only contain the tags made here.

/** @param {string} s */
const escapeHtml = (s) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

// A card of a plain rules page: {{KH}}, {{10C}}, {{RJ}}, {{7}} (a code is letters and digits only,
// so it is safe inside an attribute).
const CARD_TOKEN = /\{\{([0-9A-Z]{1,3})\}\}/g;

// Inline markup on already-escaped text. Code spans are cut out first so that their contents
// are not formatted.
/** @param {string} s */
function inline(s) {
  /** @type {string[]} */
  const codes = [];
  s = s.replace(/`([^`]+)`/g, (_, c) => {
    codes.push(`<code>${c}</code>`);
    return `\u0000${codes.length - 1}\u0000`;
  });
  s = s
    .replace(CARD_TOKEN, '<span class="rules-card" data-card="$1"></span>')
    .replace(/\*\*([^*]+)\*\*/g, "<strong>$1</strong>")
    .replace(/(^|[^*\w])\*([^*\s][^*]*)\*(?!\w)/g, "$1<em>$2</em>")
    .replace(/(^|\W)_([^_\s][^_]*)_(?!\w)/g, "$1<em>$2</em>")
    .replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, (_, label, href) => {
      const safe = /^(https?:\/\/|#)/.test(href) ? href : "#";
      return `<a href="${safe}"${safe.startsWith("#") ? "" : ' rel="noopener" target="_blank"'}>${label}</a>`;
    });
  return s.replace(/\u0000(\d+)\u0000/g, (_, i) => codes[Number(i)]);
}

/** @param {string} s */
const slug = (s) =>
  s
    .toLowerCase()
    .replace(/<[^>]+>/g, "")
    .replace(/[^\w\s-]/g, "")
    .trim()
    .replace(/\s+/g, "-");

/** @param {string} line */
const cells = (line) =>
  line
    .trim()
    .replace(/^\|/, "")
    .replace(/\|$/, "")
    .split("|")
    .map((c) => c.trim());

/**
 * Markdown text → HTML string.
 * @param {string} markdown
 * @returns {string}
 */
export function markdownToHtml(markdown) {
  const lines = escapeHtml(markdown).split("\n");
  /** @type {string[]} */
  const out = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (!line.trim()) {
      i += 1;
      continue;
    }
    // Fenced code.
    if (line.startsWith("```")) {
      const body = [];
      i += 1;
      while (i < lines.length && !lines[i].startsWith("```")) body.push(lines[i++]);
      i += 1;
      out.push(`<pre><code>${body.join("\n")}</code></pre>`);
      continue;
    }
    // Heading.
    const h = /^(#{1,6})\s+(.*)$/.exec(line);
    if (h) {
      const level = h[1].length;
      const content = inline(h[2]);
      out.push(`<h${level} id="${slug(h[2])}">${content}</h${level}>`);
      i += 1;
      continue;
    }
    // Table: a header row, a |---| row, then body rows.
    if (line.trim().startsWith("|") && /^\s*\|?[\s:|-]+\|?\s*$/.test(lines[i + 1] ?? "")) {
      const head = cells(line);
      i += 2;
      const rows = [];
      while (i < lines.length && lines[i].trim().startsWith("|")) rows.push(cells(lines[i++]));
      const th = head.map((c) => `<th>${inline(c)}</th>`).join("");
      const tb = rows.map((r) => `<tr>${r.map((c) => `<td>${inline(c)}</td>`).join("")}</tr>`);
      out.push(`<table><thead><tr>${th}</tr></thead><tbody>${tb.join("")}</tbody></table>`);
      continue;
    }
    // List: items start with "- ", "* " or "1. "; indented lines continue the item.
    const item = /^(\s*)([-*]|\d+\.)\s+(.*)$/;
    if (item.test(line)) {
      const ordered = /\d/.test(item.exec(line)?.[2] ?? "");
      const items = [];
      while (i < lines.length) {
        const m = item.exec(lines[i]);
        if (m) {
          items.push(m[3]);
        } else if (/^\s+\S/.test(lines[i]) && items.length) {
          items[items.length - 1] += ` ${lines[i].trim()}`;
        } else {
          break;
        }
        i += 1;
      }
      const tag = ordered ? "ol" : "ul";
      out.push(`<${tag}>${items.map((t) => `<li>${inline(t)}</li>`).join("")}</${tag}>`);
      continue;
    }
    // Paragraph: consecutive plain lines.
    const para = [];
    while (
      i < lines.length &&
      lines[i].trim() &&
      !/^(#{1,6}\s|```|\s*([-*]|\d+\.)\s)/.test(lines[i]) &&
      !lines[i].trim().startsWith("|")
    ) {
      para.push(lines[i++].trim());
    }
    out.push(`<p>${inline(para.join(" "))}</p>`);
  }
  return out.join("\n");
}
