// The pages in the reader's language. The pages and their scripts are
// written in English; each table below gives a language's words for that
// English: `words` (whole texts), `patterns` (texts with numbers or names
// in them: `{1}` the first part as it is, `{1:n}` as a number, `{1:t}`
// translated as a word). The language is the one chosen with the header's
// switch (remembered), else the first of the browser's languages
// (navigator.languages) that has a table, else English. Numbers and PDN
// dates are written as the language writes them (Intl). A new language is
// one table more.
//
// Texts are translated as they appear: the page's text is watched, so
// what its script draws later is translated too. Names and other text from
// the database are never looked up in the tables where a page marks them
// `translate="no"`.

const KEY = "pdndb-language";

const RU = {
  name: "Русский",
  words: {
    "Explorer": "Обозреватель", "Players": "Игроки", "Problems": "Проблемные партии",
    "follows the named line to its end": "следует его линии до конца",
    "The record stops at": "Запись обрывается на", "Readings part at": "Прочтения расходятся на",
    "Legal here (click to draw):": "Допустимые здесь ходы (нажмите, чтобы показать):",
    "Dark": "Тёмная", "Light": "Светлая", "Dark or light pages": "Тёмная или светлая тема", "Language": "Язык",
    "Variant": "Вариант", "most games": "больше всего партий", "Notation": "Нотация", "usual": "обычная",
    "numeric": "цифровая", "as written": "как записано", "Flip": "Перевернуть", "Turn the board (f)": "Перевернуть доску (f)",
    "Edit position": "Редактор позиции", "Set up a position or a pattern to search": "Расставить позицию или образец для поиска",
    "Start (Home)": "В начало (Home)", "Back (←)": "Назад (←)", "Forward (→)": "Вперёд (→)",
    "End of the line (End)": "В конец (End)", "Last move (End)": "Последний ход (End)",
    "White to move": "Ход белых", "Black to move": "Ход чёрных", "FEN": "FEN", "Set position": "Установить позицию",
    "Moves played from here": "Ходы, сыгранные из этой позиции", "Move": "Ход", "Games": "Партии", "Share": "Доля",
    "White · draw · Black": "Белые · ничья · чёрные", "Score": "Очки",
    "Games reaching this position": "Партии с этой позицией", "Player": "Игрок", "Event": "Турнир",
    "Opening": "Дебют", "Date": "Дата", "Result": "Результат", "any": "любой", "White won": "победа белых",
    "Black won": "победа чёрных", "draw": "ничья", "drawn": "ничья", "no result": "нет результата", "Status": "Статус",
    "Filter": "Фильтр", "Game": "Партия", "White": "Белые", "Black": "Чёрные", "Ply": "Полуход",
    "Previous": "Назад", "Next": "Далее", "ok": "в порядке", "ambiguous": "неоднозначна", "illegal": "с ошибкой",
    "unreadable": "нечитаема", "unsupported": "не поддерживается",
    "Start position: click a move in the tree, or a piece and then a square.":
      "Начальная позиция: выберите ход в дереве или шашку, а затем поле.",
    "Which capture?": "Какое взятие?", "Search the games": "Поиск партий", "Side to move": "Чей ход",
    "either": "любой", "Colours": "Цвета", "as given": "как задано", "reversed": "наоборот", "both": "оба",
    "White man": "Белая шашка", "White king": "Белая дамка", "White any": "Любая белая", "Black man": "Чёрная шашка",
    "Black king": "Чёрная дамка", "Black any": "Любая чёрная", "Any piece": "Любая шашка", "Empty": "Пусто",
    "Erase": "Стереть", "Clear": "Очистить", "Initial position": "Начальная позиция",
    "Explorer's position": "Позиция обозревателя", "Search exact": "Точный поиск", "Search pattern": "Поиск по образцу",
    "Hits": "Найдено", "No stored game has such a position.": "Ни в одной партии нет такой позиции.",
    "Explore this position": "Исследовать эту позицию", "Download PDN": "Скачать PDN",
    "Tags": "Теги", "show as written": "показать как записано", "show cleaned": "показать очищенные",
    "start": "начало", "in a variation": "в варианте", "No moves.": "Ходов нет.",
    "as first read": "как прочитано сначала", "Problem games": "Партии с проблемами", "every problem": "все проблемы",
    "File": "Файл", "part of the path": "часть пути", "Resolved readings": "Разрешённые прочтения",
    "no": "нет", "also ok games": "и партии без проблем", "Results": "Результаты", "by status": "по статусу",
    "contradicting the moves": "противоречащие ходам", "Where": "Где", "Token": "Запись", "Why": "Почему",
    "Not found": "Не найдено", "There is nothing at this address.": "По этому адресу ничего нет.",
    "Open the explorer": "Откройте обозреватель", "the problem games": "партии с проблемами",
    "Bad request": "Неверный запрос", "Name": "Имя", "part of a name": "часть имени", "At least": "Не меньше",
    "Won": "Выиграно", "Drawn": "Ничьих", "Lost": "Проиграно", "Years": "Годы", "Repertoire": "Репертуар",
    "as White": "белыми", "as Black": "чёрными", "Sorted within this page.": "Отсортировано в пределах страницы.",
    "Sort by this column; again to reverse": "Сортировать по столбцу; ещё раз — в обратном порядке",
    "all games at this position": "все партии с этой позицией",
    "the games of this list (filtered)": "партии этого списка (с фильтром)", "Download PDN: ": "Скачать PDN: ",
    "Moves played": "Сыгранные ходы", "Board": "Доска", "Opening tree": "Дерево дебютов",
    "Manoeuvres, one per line, played in this order": "Манёвры, по одному в строке, в порядке игры", "every ply that fits": "все подходящие полуходы",
    "↩ Main line": "↩ Главная линия", "Back to the main line where this variation leaves it": "Вернуться в главную линию, где от неё отходит этот вариант",
    "fits no legal move here": "не подходит ни к одному допустимому ходу",
    "not replayed: an earlier move of this line fits no legal move": "не воспроизведён: более ранний ход этой линии недопустим",
  },
  patterns: [
    ["^(\\d+) games · (\\d+) positions indexed$", "партий: {1:n} · позиций в индексе: {2:n}"],
    ["^Game (\\d+) · (.+) \\(game (\\d+) of the file\\) · (.+)$", "Партия {1} · {2} (партия {3} в файле) · {4}"],
    ["^Opening: (.+) \\(reached at ply (\\d+);$", "Дебют: {1} (достигнут на полуходе {2};"],
    ["^leaves the named line at ply (\\d+)$", "уходит от его линии на полуходе {1}"],
    ["^Ballot: (.+)$", "Жеребьёвка: {1}"],
    ["^ply (\\d+)$", "полуходе {1}"],
    ["^: (.+) fits no legal move\\.$", ": {1} не подходит ни к одному допустимому ходу."],
    ["^ · (\\d+) games not indexed yet$", " · партий без индекса: {1:n}"],
    ["^Opening: (.+)$", "Дебют: {1}"],
    ["^(\\d+) games continue from here \\((.+)\\); score is for the side to move\\.$",
      "Партий, продолжающихся отсюда: {1:n} ({2}); очки — для стороны, которая ходит."],
    ["^No stored (.+) game continues from here\\.$", "Ни одна партия ({1}) не продолжается отсюда."],
    ["^(\\d+)–(\\d+) of (\\d+)$", "{1:n}–{2:n} из {3:n}"],
    ["^\\((\\d+)\\)$", "({1:n})"],
    ["^(\\S+) \\((White won|Black won|drawn|no result)\\)$", "{1} ({2:t})"],
    ["^(White won|Black won|drawn): (\\d+)$", "{1:t}: {2:n}"],
    ["^after ply (\\d+)$", "после полухода {1}"],
    ["^fits at plies? (.+)$", "подходит на полуходах {1}"],
    ["^Game (\\d+)$", "Партия {1}"],
    ["^Game (\\d+) at ply (\\d+)$", "Партия {1}, полуход {2}"],
    ["^Readings \\((\\d+)\\):$", "Прочтения ({1:n}):"],
    ["^The first (\\d+) of (\\d+) are shown; a name narrows the list\\.$",
      "Показаны первые {1:n} из {2:n}; имя сужает список."],
    ["^database: (.+)$", "база данных: {1}"],
    ["^(.+) \\(White\\) – (.+) \\(Black\\)$", "{1} (белые) – {2} (чёрные)"],
    ["^(.+) \\(Black\\) – (.+) \\(White\\)$", "{1} (чёрные) – {2} (белые)"],
  ],
};

const NL = {
  name: "Nederlands",
  words: {
    "Explorer": "Verkenner", "Players": "Spelers", "Problems": "Problemen",
    "follows the named line to its end": "volgt de lijn tot het einde",
    "The record stops at": "De notatie stopt bij", "Readings part at": "De lezingen splitsen bij",
    "Legal here (click to draw):": "Hier reglementair (klik om te tonen):",
    "Dark": "Donker", "Light": "Licht", "Dark or light pages": "Donkere of lichte pagina's", "Language": "Taal",
    "Variant": "Variant", "most games": "meeste partijen", "Notation": "Notatie", "usual": "gebruikelijk",
    "numeric": "numeriek", "as written": "zoals genoteerd", "Flip": "Draaien", "Turn the board (f)": "Het bord draaien (f)",
    "Edit position": "Stelling opzetten", "Set up a position or a pattern to search": "Een stelling of patroon opzetten om te zoeken",
    "Start (Home)": "Begin (Home)", "Back (←)": "Terug (←)", "Forward (→)": "Vooruit (→)",
    "End of the line (End)": "Einde van de lijn (End)", "Last move (End)": "Laatste zet (End)",
    "White to move": "Wit aan zet", "Black to move": "Zwart aan zet", "FEN": "FEN", "Set position": "Stelling instellen",
    "Moves played from here": "Zetten vanaf hier gespeeld", "Move": "Zet", "Games": "Partijen", "Share": "Aandeel",
    "White · draw · Black": "Wit · remise · zwart", "Score": "Score",
    "Games reaching this position": "Partijen met deze stelling", "Player": "Speler", "Event": "Toernooi",
    "Opening": "Opening", "Date": "Datum", "Result": "Uitslag", "any": "alle", "White won": "wit won",
    "Black won": "zwart won", "draw": "remise", "drawn": "remise", "no result": "geen uitslag", "Status": "Status",
    "Filter": "Filteren", "Game": "Partij", "White": "Wit", "Black": "Zwart", "Ply": "Halve zet",
    "Previous": "Vorige", "Next": "Volgende", "ok": "in orde", "ambiguous": "dubbelzinnig", "illegal": "onreglementair",
    "unreadable": "onleesbaar", "unsupported": "niet ondersteund",
    "Start position: click a move in the tree, or a piece and then a square.":
      "Beginstelling: klik op een zet in de boom, of op een schijf en dan op een veld.",
    "Which capture?": "Welke slag?", "Search the games": "Partijen zoeken", "Side to move": "Aan zet",
    "either": "beide", "Colours": "Kleuren", "as given": "zoals gegeven", "reversed": "omgekeerd", "both": "beide",
    "White man": "Witte schijf", "White king": "Witte dam", "White any": "Wit, willekeurig", "Black man": "Zwarte schijf",
    "Black king": "Zwarte dam", "Black any": "Zwart, willekeurig", "Any piece": "Willekeurig stuk", "Empty": "Leeg",
    "Erase": "Wissen", "Clear": "Leegmaken", "Initial position": "Beginstelling",
    "Explorer's position": "Stelling van de verkenner", "Search exact": "Exact zoeken", "Search pattern": "Patroon zoeken",
    "Hits": "Treffers", "No stored game has such a position.": "Geen enkele partij heeft deze stelling.",
    "Explore this position": "Deze stelling verkennen", "Download PDN": "PDN downloaden",
    "Tags": "Tags", "show as written": "toon zoals genoteerd", "show cleaned": "toon opgeschoond",
    "start": "begin", "in a variation": "in een variant", "No moves.": "Geen zetten.",
    "as first read": "zoals eerst gelezen", "Problem games": "Partijen met problemen", "every problem": "alle problemen",
    "File": "Bestand", "part of the path": "deel van het pad", "Resolved readings": "Opgeloste lezingen",
    "no": "nee", "also ok games": "ook partijen in orde", "Results": "Uitslagen", "by status": "per status",
    "contradicting the moves": "in strijd met de zetten", "Where": "Waar", "Token": "Notatie", "Why": "Waarom",
    "Not found": "Niet gevonden", "There is nothing at this address.": "Op dit adres staat niets.",
    "Open the explorer": "Open de verkenner", "the problem games": "de partijen met problemen",
    "Bad request": "Ongeldig verzoek", "Name": "Naam", "part of a name": "deel van een naam", "At least": "Minstens",
    "Won": "Gewonnen", "Drawn": "Remise", "Lost": "Verloren", "Years": "Jaren", "Repertoire": "Repertoire",
    "as White": "met wit", "as Black": "met zwart", "Sorted within this page.": "Gesorteerd binnen deze pagina.",
    "Sort by this column; again to reverse": "Sorteren op deze kolom; nogmaals om om te keren",
    "all games at this position": "alle partijen met deze stelling",
    "the games of this list (filtered)": "de partijen van deze lijst (gefilterd)", "Download PDN: ": "PDN downloaden: ",
    "Moves played": "Gespeelde zetten", "Board": "Bord", "Opening tree": "Openingsboom",
    "Manoeuvres, one per line, played in this order": "Manoeuvres, één per regel, in deze volgorde gespeeld", "every ply that fits": "elke passende halve zet",
    "↩ Main line": "↩ Hoofdvariant", "Back to the main line where this variation leaves it": "Terug naar de hoofdvariant waar deze variant afsplitst",
    "fits no legal move here": "past op geen reglementaire zet",
    "not replayed: an earlier move of this line fits no legal move": "niet nagespeeld: een eerdere zet van deze lijn is onreglementair",
  },
  patterns: [
    ["^(\\d+) games · (\\d+) positions indexed$", "{1:n} partijen · {2:n} stellingen geïndexeerd"],
    ["^Game (\\d+) · (.+) \\(game (\\d+) of the file\\) · (.+)$", "Partij {1} · {2} (partij {3} van het bestand) · {4}"],
    ["^Opening: (.+) \\(reached at ply (\\d+);$", "Opening: {1} (bereikt na halve zet {2};"],
    ["^leaves the named line at ply (\\d+)$", "verlaat de lijn bij halve zet {1}"],
    ["^Ballot: (.+)$", "Loting: {1}"],
    ["^ply (\\d+)$", "halve zet {1}"],
    ["^: (.+) fits no legal move\\.$", ": {1} past bij geen enkele reglementaire zet."],
    ["^ · (\\d+) games not indexed yet$", " · {1:n} partijen nog niet geïndexeerd"],
    ["^Opening: (.+)$", "Opening: {1}"],
    ["^(\\d+) games continue from here \\((.+)\\); score is for the side to move\\.$",
      "{1:n} partijen gaan hier verder ({2}); de score is voor de partij aan zet."],
    ["^No stored (.+) game continues from here\\.$", "Geen enkele partij ({1}) gaat hier verder."],
    ["^(\\d+)–(\\d+) of (\\d+)$", "{1:n}–{2:n} van {3:n}"],
    ["^\\((\\d+)\\)$", "({1:n})"],
    ["^(\\S+) \\((White won|Black won|drawn|no result)\\)$", "{1} ({2:t})"],
    ["^(White won|Black won|drawn): (\\d+)$", "{1:t}: {2:n}"],
    ["^after ply (\\d+)$", "na halve zet {1}"],
    ["^fits at plies? (.+)$", "past bij halve zetten {1}"],
    ["^Game (\\d+)$", "Partij {1}"],
    ["^Game (\\d+) at ply (\\d+)$", "Partij {1}, halve zet {2}"],
    ["^Readings \\((\\d+)\\):$", "Lezingen ({1:n}):"],
    ["^The first (\\d+) of (\\d+) are shown; a name narrows the list\\.$",
      "De eerste {1:n} van {2:n} worden getoond; een naam verkleint de lijst."],
    ["^database: (.+)$", "database: {1}"],
    ["^(.+) \\(White\\) – (.+) \\(Black\\)$", "{1} (wit) – {2} (zwart)"],
    ["^(.+) \\(Black\\) – (.+) \\(White\\)$", "{1} (zwart) – {2} (wit)"],
  ],
};

/** Every language: its own name, its words and patterns (English: none needed). */
export const LANGUAGES = {
  en: { name: "English", words: {}, patterns: [] },
  ru: RU,
  nl: NL,
};

/** The language of the pages: chosen, else the browser's first with a table, else English. */
function chosenLanguage() {
  let saved = null;
  try { saved = localStorage.getItem(KEY); } catch { saved = null; }
  if (saved && LANGUAGES[saved]) return saved;
  for (const tag of navigator.languages || [navigator.language]) {
    const base = String(tag || "").toLowerCase().split("-")[0];
    if (LANGUAGES[base]) return base;
  }
  return "en";
}

export const language = chosenLanguage();
const table = LANGUAGES[language];
const patterns = table.patterns.map(([source, template]) => [new RegExp(source), template]);
const numbers = new Map();
const percents = new Map();

/** A number (as written: its decimals kept) as the language writes it. */
export function formatNumber(n) {
  const text = String(n).trim();
  const decimals = Math.min(6, (text.split(".")[1] || "").length);
  if (!numbers.has(decimals)) {
    numbers.set(decimals, new Intl.NumberFormat(language, { minimumFractionDigits: decimals, maximumFractionDigits: decimals }));
  }
  return numbers.get(decimals).format(Number(text));
}

/** A share out of 100 (`12.5`, its decimals kept) as the language writes a percentage. */
export function formatPercent(n) {
  const text = String(n).trim();
  const decimals = Math.min(6, (text.split(".")[1] || "").length);
  if (!percents.has(decimals)) {
    percents.set(decimals, new Intl.NumberFormat(language, { style: "percent", minimumFractionDigits: decimals, maximumFractionDigits: decimals }));
  }
  return percents.get(decimals).format(Number(text) / 100);
}

/** A PDN date (`YYYY.MM.DD`, `??` for unknown parts) as far as it is known, as the language writes dates. */
export function formatPdnDate(text) {
  const match = /^(\d{4}|\?{4})\.(\d{2}|\?{2})\.(\d{2}|\?{2})$/.exec(String(text).trim());
  if (!match) return String(text);
  const [year, month, day] = match.slice(1).map((part) => (part.includes("?") ? null : Number(part)));
  if (year === null) return "?";
  const options = { timeZone: "UTC", year: "numeric" };
  if (month !== null && month >= 1 && month <= 12) {
    options.month = day !== null ? "short" : "long";
    if (day !== null && day >= 1 && day <= 31) options.day = "numeric";
  }
  const date = new Date(Date.UTC(year, (options.month ? month : 1) - 1, options.day ? day : 1));
  return new Intl.DateTimeFormat(language, options).format(date);
}

/** The language's text for an English text (the English itself when there is none). */
export function t(english) {
  const trimmed = english.trim();
  if (!trimmed) return english;
  let out = table.words[trimmed];
  if (out === undefined) {
    for (const [regex, template] of patterns) {
      const match = regex.exec(trimmed);
      if (!match) continue;
      out = template.replace(/\{(\d)(?::([nt]))?\}/g, (_, i, how) => {
        const part = match[Number(i)] ?? "";
        if (how === "n") return formatNumber(part);
        if (how === "t") return table.words[part] ?? part;
        return part;
      });
      break;
    }
  }
  if (out === undefined) return english;
  // The spaces around the text are kept.
  const lead = english.slice(0, english.indexOf(trimmed));
  const tail = english.slice(english.indexOf(trimmed) + trimmed.length);
  return lead + out + tail;
}

const ATTRIBUTES = ["title", "placeholder", "aria-label"];
const NUMBER = /^-?\d+(\.\d+)?$/;
const PERCENT = /^(\d+(\.\d+)?)%$/;
const PDN_DATE = /^(\d{4}|\?{4})\.(\d{2}|\?{2})\.(\d{2}|\?{2})$/;
/** What each text node was last set to here (not to be translated again). */
const done = new WeakMap();

/** A text as this language shows it: percentages, numbers in number cells and PDN dates formatted (the English value kept on the cell as `data-raw`), words translated. */
function shown(node) {
  const text = node.data;
  const cell = node.parentElement;
  const trimmed = text.trim();
  const percent = PERCENT.exec(trimmed);
  if (percent && cell && cell.childNodes.length === 1) {
    cell.dataset.raw = percent[1];
    return formatPercent(percent[1]);
  }
  if (cell && cell.tagName === "TD" && cell.childNodes.length === 1) {
    if (cell.classList.contains("num") && NUMBER.test(trimmed)) {
      cell.dataset.raw = trimmed;
      return formatNumber(trimmed);
    }
    if (PDN_DATE.test(trimmed)) {
      cell.dataset.raw = trimmed;
      return formatPdnDate(trimmed);
    }
  }
  return language === "en" ? text : t(text);
}

function untranslated(element) {
  return element && element.closest("[translate=no], script, style, textarea, svg");
}

function translateText(node) {
  if (done.get(node) === node.data || untranslated(node.parentElement)) return;
  // An option without a value attribute is read by its text: left as is.
  const parent = node.parentElement;
  if (parent && parent.tagName === "OPTION" && !parent.hasAttribute("value")) return;
  const out = shown(node);
  if (out !== node.data) node.data = out;
  done.set(node, node.data);
}

function translateAttributes(element) {
  if (language === "en" || untranslated(element)) return;
  for (const name of ATTRIBUTES) {
    const value = element.getAttribute(name);
    if (!value) continue;
    const out = t(value);
    if (out !== value) element.setAttribute(name, out);
  }
}

/** Translates a node and everything in it. */
export function translate(root) {
  if (root.nodeType === Node.TEXT_NODE) { translateText(root); return; }
  if (root.nodeType !== Node.ELEMENT_NODE) return;
  translateAttributes(root);
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT | NodeFilter.SHOW_ELEMENT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (node.nodeType === Node.TEXT_NODE) translateText(node);
    else translateAttributes(node);
  }
}

/** The header's language switch: changing it is remembered and the page drawn again. */
function languageSwitch() {
  const select = document.getElementById("language");
  if (!select) return;
  select.replaceChildren(...Object.entries(LANGUAGES).map(([code, l]) => {
    const option = document.createElement("option");
    option.value = code;
    option.textContent = l.name;
    option.setAttribute("translate", "no");
    return option;
  }));
  select.value = language;
  select.addEventListener("change", () => {
    try { localStorage.setItem(KEY, select.value); } catch { /* not remembered */ }
    location.reload();
  });
}

document.documentElement.lang = language;
languageSwitch();
translate(document.body);
new MutationObserver((records) => {
  for (const record of records) {
    if (record.type === "characterData") translateText(record.target);
    else if (record.type === "attributes") translateAttributes(record.target);
    else for (const node of record.addedNodes) translate(node);
  }
}).observe(document.body, { childList: true, subtree: true, characterData: true, attributes: true, attributeFilter: ATTRIBUTES });
