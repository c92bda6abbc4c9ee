// The page's words, in its reader's language: the server puts the table of the shell's
// language in the page (a JSON block, id "words"), and gives another at /api/words/<tag> when
// a state says its reader reads another (a player page's shell does not know its player). No
// text a reader sees is written here: a missing key shows as itself.

let table = readTable();

function readTable() {
  try {
    return JSON.parse(document.getElementById("words").textContent);
  } catch {
    return { language: document.documentElement.lang || "en", words: {}, plurals: {} };
  }
}

/** `text` with its {placeholders} filled from `params` ({{ and }} are braces). */
function fill(text, params) {
  return text.replace(/\{\{|\}\}|\{(\w+)\}/g, (found, name) => {
    if (found === "{{") return "{";
    if (found === "}}") return "}";
    return name in params ? String(params[name]) : found;
  });
}

/** The page's word `key`, its placeholders filled from `params`. */
export function t(key, params = {}) {
  const text = table.words[key];
  return text === undefined ? key : fill(text, params);
}

/** The page's word `key` for the number `n` (its form by the language's plural rule). */
export function tn(key, n, params = {}) {
  const forms = table.plurals[key] || {};
  const form = forms[new Intl.PluralRules(table.language).select(n)] ?? forms.other;
  return form === undefined ? key : fill(form, { ...params, n });
}

/** The locale dates are shown in: the browser's own when it is of the page's language (its
 * region's way), else the page's. */
export function dateLocale() {
  const browser = navigator.language || "";
  return browser.split("-")[0] === table.language.split("-")[0] ? browser : table.language;
}

/** Switch the page to language `tag`, its fixed texts too; whether it switched (not when it
 * speaks it already, nor when the server has no words for it). `headers`: the page's own
 * (an Activity's pass). */
export async function speak(tag, headers = {}) {
  if (!tag || tag === table.language) return false;
  try {
    const response = await fetch(`/api/words/${encodeURIComponent(tag)}`, { headers });
    if (!response.ok) return false;
    table = await response.json();
  } catch {
    return false;
  }
  label();
  return true;
}

/** Word the page's fixed texts: each element's `data-w` (its text), `data-w-label` (its
 * aria-label) and `data-w-alt`; the page's title and language. */
export function label() {
  document.documentElement.lang = table.language;
  for (const element of document.querySelectorAll("[data-w]")) element.textContent = t(element.dataset.w);
  for (const element of document.querySelectorAll("[data-w-label]")) {
    element.setAttribute("aria-label", t(element.dataset.wLabel));
  }
  for (const element of document.querySelectorAll("[data-w-alt]")) element.alt = t(element.dataset.wAlt);
  const title = document.body.dataset.title;
  if (title) document.title = t(title);
}
