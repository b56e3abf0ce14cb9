// Languages: the same gettext catalogs as the terminal game, served by /api/lang/{lang}.
// `_` and `ngettext` take the English text as key (as in Python) and fill {placeholders}.

export const LANGUAGES = ["en", "de", "pl", "ru"];
const STORED = "exact61.lang";

let catalog = { lang: "en", messages: {}, plurals: {}, plural: [], rules: {}, languages: {} };
const listeners = new Set();

/** Mark a message for translation without translating it yet (gettext's N_). */
export function N_(message) {
  return message;
}

export function format(text, params) {
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

export function _(message, params) {
  return format(catalog.messages[message] || message, params);
}

function pluralIndex(n) {
  const table = catalog.plural;
  if (!table.length) return n === 1 ? 0 : 1;
  const count = Math.abs(Math.trunc(n));
  return count < table.length ? table[count] : table[100 + (count % 100)];
}

/** The form of `singular`/`plural` for the count `n`, with {n} (and `params`) filled in. */
export function ngettext(singular, plural, n, params) {
  const forms = catalog.plurals[singular];
  const text = forms ? forms[pluralIndex(n)] ?? forms[forms.length - 1] : n === 1 ? singular : plural;
  return format(text, { n, ...params });
}

export function language() {
  return catalog.lang;
}

export function languageNames() {
  return catalog.languages;
}

/** Each rule's paragraph (Markdown) in the current language, by number: "R13". */
export function ruleParagraph(rule) {
  return catalog.rules[rule];
}

/** The language to show: the person's own choice, else their browser's, whoever made the
 * game; the game's language (its maker's choice) only where the browser's is none of the
 * page's; else English. */
export function preferredLanguage(gameLang) {
  let stored = null;
  try {
    stored = localStorage.getItem(STORED);
  } catch {
    // storage may be off: no choice was kept
  }
  if (LANGUAGES.includes(stored)) return stored;
  for (const tag of navigator.languages || [navigator.language || ""]) {
    const code = tag.slice(0, 2).toLowerCase();
    if (LANGUAGES.includes(code)) return code;
  }
  return LANGUAGES.includes(gameLang) ? gameLang : "en";
}

export async function loadLanguage(lang) {
  if (!LANGUAGES.includes(lang)) lang = "en";
  if (lang === catalog.lang && catalog.plural.length) return;
  const answer = await fetch(`/api/lang/${lang}`);
  if (!answer.ok) throw new Error(`no catalog for ${lang}`);
  catalog = await answer.json();
  document.documentElement.lang = lang;
  for (const listener of listeners) listener(lang);
}

/** The person picks a language: remembered in this browser. */
export async function chooseLanguage(lang) {
  localStorage.setItem(STORED, lang);
  await loadLanguage(lang);
}

export function onLanguageChange(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
