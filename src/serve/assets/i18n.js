// The pages in the reader's language. The pages and their scripts are
// written in English; each table below gives a language's words for that
// English: `words` (whole texts), `patterns` (texts with numbers or names
// in them: `{1}` the first part as it is, `{1:n}` as a number, `{1:t}`
// translated as a text of its own). A sentence with links or marked parts
// in it is one entry of `words` with `{1}`, `{2}`… where the parts go
// (see `sentence`). The language is the one chosen with the header's
// switch (remembered), else the first of the browser's languages
// (navigator.languages) that has a table, else English. Numbers and PDN
// dates are written as the language writes them (Intl). A new language is
// one table more.
//
// What the server says (a check record's message, a refused request) comes
// with a code and its parts beside its English text (`{code, parts}`, see
// docs/api.md); `said` gives a language's words for it from the table's
// `said` templates (`{name}` a part as it is, `{name:n}` as a number,
// `{name:t}` translated as a text of its own; a part that is itself a
// message in its own words, a list of messages joined by `; `, a list of
// names as the language lists alternatives), the English text being
// shown where a language has no words for the message or one of its
// parts. What SQLite said of a database failure has no fixed wording: it
// is shown as it is (`detail`), after the language's words for its cause.
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
    "White man": "Белая простая", "White king": "Белая дамка", "White any": "Любая белая", "Black man": "Чёрная простая",
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
    "This address cannot be read: a game is named by its number, e.g. /game/12.":
      "Этот адрес не читается: партия называется своим номером, например /game/12.",
    "Turn the board": "Перевернуть доску", "Position editor: click a square to put or remove the chosen mark":
      "Редактор позиции: нажмите на поле, чтобы поставить или убрать выбранный знак",
    "What a click puts": "Что ставит нажатие", "A white man or king": "Белая простая или дамка",
    "A black man or king": "Чёрная простая или дамка", "Any piece of either side": "Любая шашка любой стороны",
    "The square must be empty": "Поле должно быть пустым", "Remove the mark of a square": "Убрать знак с поля",
    "must not (a click puts “not this”)": "запрет (нажатие ставит «не это»)",
    "The position the explorer shows": "Позиция, которую показывает обозреватель", "Position search": "Поиск позиции",
    "Colour": "Цвет", "The side the player had: their repertoire with it": "Цвет игрока: его репертуар этим цветом",
    "Material: N, N-M or N+ (empty: any)": "Материал: N, N-M или N+ (пусто: любой)",
    "White men": "Белые простые", "White kings": "Белые дамки", "White pieces": "Белые шашки",
    "Black men": "Чёрные простые", "Black kings": "Чёрные дамки", "Black pieces": "Чёрные шашки",
    "Pattern (written form; the board writes it)": "Образец (запись; её пишет доска)",
    "Games reaching exactly this position (men and kings only)": "Партии, в которых встречается ровно эта позиция (только простые и дамки)",
    "Games with a position that fits the marks and the material": "Партии с позицией, подходящей под знаки и материал",
    "Also list ok games where a token fitted several moves and later moves settled it":
      "Показать и партии без проблем, где запись подходила к нескольким ходам, а следующие ходы это разрешили",
    "Instead of statuses: games whose Result tag contradicts the result after the moves or the last position":
      "Вместо статусов: партии, у которых тег Result противоречит результату по ходам или последней позиции",
    "the board could not be drawn": "доску не удалось нарисовать",
    "an exact search needs the side to move: White or Black": "для точного поиска нужно указать, чей ход: белых или чёрных",
    "an exact search takes men and kings only (any, empty, must-not and groups are for the pattern search)":
      "точный поиск принимает только простые и дамки (любая шашка, пустое поле, запреты и группы — для поиска по образцу)",
    "put marks on the board, or give material or a manoeuvre, to search a pattern":
      "для поиска по образцу поставьте знаки на доску или задайте материал или манёвр",
    "(searching…)": "(поиск…)", "colours reversed": "цвета наоборот",
    "Tree and games: all games": "Дерево и партии: все партии", "Tree and games: filtered by": "Дерево и партии: фильтр",
    "(give a player)": "(укажите игрока)",
    "Readings part at {1}: {2} fits {3}.": "Прочтения расходятся на {1}: {2} подходит к ходам {3}.",
    "The record stops at {1}: {2} fits no legal move.": "Запись обрывается на {1}: {2} не подходит ни к одному допустимому ходу.",
    "Game {1} · {2} (game {3} of the file) · {4}": "Партия {1} · {2} (партия {3} в файле) · {4}",
    "(rules {1})": "(правила: {1})", "tag": "по тегу", "inferred": "выведены из записи", "forced": "заданы явно",
    "default": "по умолчанию",
    "the result contradicts the last position": "результат противоречит последней позиции",
    "the Result tag differs from the result after the moves": "тег Result расходится с результатом по ходам",
    "white": "белые", "black": "чёрные", "chess": "шахматы", "Chinese chess": "китайские шахматы",
    "Canadian draughts (12x12)": "канадские шашки (12×12)", "Portuguese draughts": "португальские шашки",
    "Turkish draughts": "турецкие шашки", "Thai draughts": "тайские шашки", "Spantsiretti": "спанциретти",
    "Gothic draughts": "готические шашки",
  },
  said: {
    illegal_move: "полуход {ply}: ход {token} недопустим",
    not_a_move: "полуход {ply}: {token} — не ход",
    unknown_move: "полуход {ply}: {token} — неизвестный ход",
    no_such_square: "полуход {ply}: {token} называет поле, которого нет в нотации {notation}",
    against_tag: "; тег называет {tag}, но ходы сделаны на доске {board} и читаются без ошибок как {read_ok_as}",
    ambiguous: "полуход {ply}: {token} подходит к ходам ({moves:n}), каждый из которых ведёт к полному прочтению ({candidates}); всего прочтений: {readings:n}",
    too_many_positions: "прочтения множатся сверх предела воспроизведения (больше {most:n} позиций на полуходе {ply}): воспроизведение остановлено после полухода {reached}",
    too_many_tracked: "прочтения множатся сверх предела воспроизведения (больше {most:n} позиций и ходов всего на полуходе {ply}): воспроизведение остановлено после полухода {reached}",
    unusable_fen: "FEN непригоден: {fen}",
    text_unreadable: "текст не читается: {why}",
    too_many_plies: "полуходов: {plies:n} — больше предела в {most:n} полуходов на партию",
    no_rules_fit: "ни одни правила не подходят к полям записи",
    game_not_played: "GameType «{game_type}» — это {game:t}, игра, в которую pdndb не играет",
    unknown_game_type: "GameType «{game_type}» не называет ни одной игры, известной pdndb",
    square_beyond_boards: "поле {square} лежит за пределами всех досок, на которых играет pdndb (8×8 и 10×10)",
    empty_fen: "пустой FEN",
    not_a_side: "«{text}» — не сторона, которая ходит (ожидается W, B или ?)",
    not_a_piece_list: "«{text}» — не список шашек (ожидается W… или B…)",
    not_a_square: "«{text}» — не поле",
    not_a_range: "«{text}» — не диапазон полей",
    other_board: "«{text}» — на другой доске, чем прежние поля FEN",
    no_piece_lists: "в «{text}» нет списков шашек",
    not_king_runs: "«{text}» — не поле ходов дамок (ожидается +N[поле]+N[поле])",
    invalid_position: "недопустимая позиция: {problems}",
    square_off_board: "поля {square} нет на доске",
    two_pieces: "две шашки на поле {square}",
    man_on_crowning_row: "простая на поле {square} (цвет: {colour:t}) стоит в своём ряду превращения",
    too_many_pieces: "{colour:t}: шашек {pieces:n} (не больше {most:n})",
    more_like_it: " (и ещё таких: {more:n})",
    more_like_it_on: " (и ещё таких: {more:n}; поля {squares})",
    unknown_switch: "неизвестный переключатель правил «{name}» (ожидается {expected})",
    not_a_value_of: "«{value}» — не значение «{key}» (ожидается {expected})",
    not_key_value: "«{text}» не имеет вида ключ=значение",
    holds: "в ней есть {list}",
    held_variant: "{variant} (партий: {games:n})",
    holds_nothing: "в ней нет ни одной партии",
    no_such_route: "нет такого адреса: {path}",
    no_such_game: "в базе нет партии {id}",
    no_source: "у партии {id} нет исходного текста",
    localhost_only: "этот сервер отвечает только на запросы к localhost",
    request_too_long: "длина запроса — {bytes:n} байт; читается не больше {most:n}",
    busy: "сервер занят: обрабатывается запросов: {running:n}, ждут: {waiting:n}; попробуйте снова через {seconds:n} с",
    stopping: "сервер останавливается",
    query_stopped: "запрос прерван: {cause}",
    database_unavailable: "база данных сейчас не может ответить: {cause}",
    sqlite_said: " (SQLite сообщает: {detail})",
    query_interrupted: "запрос превысил отведённое ему время",
    query_cancelled: "сервер отменил запрос",
    query_failed: "запрос завершился сбоем на сервере",
    database_busy: "база данных заблокирована другим соединением",
    database_missing: "файла базы данных нет",
    database_unreadable: "файл базы данных нельзя открыть или прочитать",
    not_a_database: "файл не является базой данных SQLite",
    database_corrupt: "база данных повреждена",
    disk_full: "диск заполнен",
    database_read_only: "в базу данных нельзя записывать",
    foreign_database: "это база данных другой программы",
    database_too_new: "база данных на шаге схемы {found}, более новом, чем знает этот pdndb (шаг {known})",
    database_outdated: "база данных на шаге схемы {found}, более старом, чем читает этот pdndb (шаг {known}), и здесь её нельзя записать",
    database_failed: "сбой базы данных",
    no_board: "у партии {id} нет доски для показа: {reason}",
    not_replayed: "партия {status:t}",
    not_replayed_because: "партия {status:t}: {reason}",
    start_not_rebuilt: "партия {status:t}: её начальную позицию нельзя восстановить по правилам {variant}",
    unknown_parameter: "неизвестный параметр {name}; этот адрес принимает: {takes}",
    given_twice: "{param}: задан дважды",
    too_long: "{param}: байт: {bytes:n}; читается не больше {most:n}",
    not_utf8: "строку запроса нельзя прочитать: это не UTF-8",
    not_in_range: "{param}: {value} — не целое число от {low:n} до {high:n}",
    not_a_flag: "{param}: {value} — не 1 и не 0",
    bad_sort: "{param}: {value} — не id, date, event и не player",
    not_a_game_id: "{value} — не номер партии (число от 1)",
    fen_and_moves: "укажите fen или moves, но не оба",
    position_and_criteria: "укажите fen или moves либо pattern, material и manoeuvre, но не то и другое вместе",
    bad_fen: "{param}: непригодный FEN: {fen}",
    bad_moves: "{param}: ходы не читаются: {why:t}",
    move_not_legal_here: "{param}: полуход {ply}: {token} — здесь недопустимый ход (допустимы: {legal})",
    no_move_left: "{param}: полуход {ply}: {token} — здесь недопустимый ход (допустимых нет, партия окончена)",
    legal_elsewhere: "{param}: {reason} по правилам {variant}; допустимо по правилам {legal_under}: добавьте {variant_param} {first}",
    unknown_variant: "{param}: неизвестный вариант «{value}» (ожидается один из: {expected})",
    bad_rules: "{param}: правила не читаются: {switch}",
    variant_absent: "{param} {asked}: в базе нет партий варианта {asked}; {held}",
    bad_date_range: "{param}: «{value}» — не диапазон дат: пишите ГГГГ, ГГГГ.ММ или ГГГГ.ММ.ДД, концы через «..»",
    bad_pattern: "{param}: {why:t}",
    bad_value: "{param}: {why:t}",
  },
  patterns: [
    ["^'(.)' is no kind of piece \\(W, B, X or E\\), in (.+)$", "«{1}» — не вид шашки (W, B, X или E), в {2}"],
    ["^square (\\S+) is not on the (\\S+) board \\((.+)\\), in (.+)$", "поля {1} нет на доске {2} ({3}), в {4}"],
    ["^`(.+)` is not a square$", "«{1}» — не поле"],
    ["^invalid position: two pieces on square (\\d+)$", "недопустимая позиция: две шашки на поле {1}"],
    ["^(\\d+) games · (\\d+) positions indexed$", "партий: {1:n} · позиций в индексе: {2:n}"],
    ["^Opening: (.+) \\(reached at ply (\\d+);$", "Дебют: {1} (достигнут на полуходе {2};"],
    ["^leaves the named line at ply (\\d+)$", "уходит от его линии на полуходе {1}"],
    ["^Ballot: (.+)$", "Жеребьёвка: {1}"],
    ["^ply (\\d+)$", "полуходе {1}"],
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
    ["^(\\d+) filtered games continue from here \\((.+)\\); score is for the side to move\\.$",
      "Партий с фильтром, продолжающихся отсюда: {1:n} ({2}); очки — для стороны, которая ходит."],
    ["^No stored filtered (.+) game continues from here\\.$", "Ни одна партия ({1}) с фильтром не продолжается отсюда."],
    ["^(.+) is not a range of squares$", "{1} — не диапазон полей"],
    ["^(.+) is not a square number$", "{1} — не номер поля"],
    ["^(.+): a group ends with \\)$", "{1}: группа заканчивается на )"],
    ["^(.+): a section is W, B, X or E and its squares$", "{1}: раздел — это W, B, X или E и его поля"],
    ["^(.+): an empty item$", "{1}: пустой элемент"],
    ["^(.+): K and \\* go with W or B$", "{1}: K и * ставятся только с W или B"],
    ["^The board cannot show this pattern \\((.+)\\); the search reads it as written\\.$",
      "Доска не может показать этот образец ({1:t}); поиск читает его как записано."],
    ["^square (.+)$", "поле {1}"],
    ["^\\((\\d+) exact\\)$", "(точных: {1:n})"],
    ["^\\((\\d+) pattern\\)$", "(по образцу: {1:n})"],
    ["^game (\\d+) · ply (\\d+) · (\\S+) \\((White won|Black won|drawn|no result)\\)$", "партия {1} · полуход {2} · {3} ({4:t})"],
    ["^(.+) \\(numeric (.+)\\)$", "{1} (в цифровой записи {2})"],
    ["^(\\d+): ply (\\d+): (.+)$", "{1}: полуход {2}: {3}"],
    ["^last move (.+)$", "последний ход {1}"],
    ["^(.+):(\\d+) \\(game (\\d+)\\)$", "{1}:{2} (партия {3})"],
    ["^(\\d+) readings resolved$", "разрешённых прочтений: {1:n}"],
    ["^ply (\\d+ \\([^)]*\\)) (.+) is illegal$", "полуход {1}: ход {2} недопустим"],
    ["^ply (\\d+ \\([^)]*\\)) (.+) is not a move$", "полуход {1}: {2} — не ход"],
    ["^ply (\\d+ \\([^)]*\\)) (.+) is an unknown move$", "полуход {1}: {2} — неизвестный ход"],
    ["^ply (\\d+ \\([^)]*\\)) (.+) names a square that (\\S+) notation does not have$",
      "полуход {1}: {2} называет поле, которого нет в нотации {3}"],
    ["^ply (\\d+ \\([^)]*\\)) (.+) fits (\\d+) moves that each lead to a complete reading \\((.+)\\); (\\d+) readings in all$",
      "полуход {1}: {2} подходит к ходам ({3:n}), каждый из которых ведёт к полному прочтению ({4}); всего прочтений: {5:n}"],
  ],
};

const NL = {
  name: "Nederlands",
  words: {
    "Explorer": "Verkenner", "Players": "Spelers", "Problems": "Problemen",
    "follows the named line to its end": "volgt de lijn tot het einde",
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
    "This address cannot be read: a game is named by its number, e.g. /game/12.":
      "Dit adres is onleesbaar: een partij heet naar haar nummer, bijvoorbeeld /game/12.",
    "Turn the board": "Het bord draaien", "Position editor: click a square to put or remove the chosen mark":
      "Stelling opzetten: klik op een veld om het gekozen teken te zetten of weg te halen",
    "What a click puts": "Wat een klik zet", "A white man or king": "Een witte schijf of dam",
    "A black man or king": "Een zwarte schijf of dam", "Any piece of either side": "Een willekeurig stuk van een van beide kleuren",
    "The square must be empty": "Het veld moet leeg zijn", "Remove the mark of a square": "Het teken van een veld weghalen",
    "must not (a click puts “not this”)": "mag niet (een klik zet „niet dit”)",
    "The position the explorer shows": "De stelling die de verkenner toont", "Position search": "Stellingen zoeken",
    "Colour": "Kleur", "The side the player had: their repertoire with it": "De kleur van de speler: zijn repertoire daarmee",
    "Material: N, N-M or N+ (empty: any)": "Materiaal: N, N-M of N+ (leeg: alle)",
    "White men": "Witte schijven", "White kings": "Witte dammen", "White pieces": "Witte stukken",
    "Black men": "Zwarte schijven", "Black kings": "Zwarte dammen", "Black pieces": "Zwarte stukken",
    "Pattern (written form; the board writes it)": "Patroon (geschreven vorm; het bord schrijft hem)",
    "Games reaching exactly this position (men and kings only)": "Partijen die precies deze stelling bereiken (alleen schijven en dammen)",
    "Games with a position that fits the marks and the material": "Partijen met een stelling die bij de tekens en het materiaal past",
    "Also list ok games where a token fitted several moves and later moves settled it":
      "Ook partijen in orde tonen waar een notatie bij meerdere zetten paste en latere zetten de keuze maakten",
    "Instead of statuses: games whose Result tag contradicts the result after the moves or the last position":
      "In plaats van statussen: partijen waarvan de Result-tag in strijd is met de uitslag na de zetten of de laatste stelling",
    "the board could not be drawn": "het bord kon niet getekend worden",
    "an exact search needs the side to move: White or Black": "exact zoeken vraagt wie aan zet is: wit of zwart",
    "an exact search takes men and kings only (any, empty, must-not and groups are for the pattern search)":
      "exact zoeken neemt alleen schijven en dammen (willekeurig, leeg, mag-niet en groepen zijn voor het patroon zoeken)",
    "put marks on the board, or give material or a manoeuvre, to search a pattern":
      "zet tekens op het bord, of geef materiaal of een manoeuvre, om een patroon te zoeken",
    "(searching…)": "(zoeken…)", "colours reversed": "kleuren omgekeerd",
    "Tree and games: all games": "Boom en partijen: alle partijen", "Tree and games: filtered by": "Boom en partijen: gefilterd op",
    "(give a player)": "(geef een speler)",
    "Readings part at {1}: {2} fits {3}.": "De lezingen splitsen bij {1}: {2} past bij {3}.",
    "The record stops at {1}: {2} fits no legal move.": "De notatie stopt bij {1}: {2} past bij geen enkele reglementaire zet.",
    "Game {1} · {2} (game {3} of the file) · {4}": "Partij {1} · {2} (partij {3} van het bestand) · {4}",
    "(rules {1})": "(regels: {1})", "tag": "uit de tag", "inferred": "afgeleid uit de zetten", "forced": "opgelegd",
    "default": "standaard",
    "the result contradicts the last position": "de uitslag is in strijd met de laatste stelling",
    "the Result tag differs from the result after the moves": "de Result-tag wijkt af van de uitslag na de zetten",
    "white": "wit", "black": "zwart", "chess": "schaken", "Chinese chess": "Chinees schaken",
    "Canadian draughts (12x12)": "Canadees dammen (12×12)", "Portuguese draughts": "Portugees dammen",
    "Turkish draughts": "Turks dammen", "Thai draughts": "Thais dammen", "Gothic draughts": "Gotisch dammen",
  },
  said: {
    illegal_move: "halve zet {ply}: {token} is onreglementair",
    not_a_move: "halve zet {ply}: {token} is geen zet",
    unknown_move: "halve zet {ply}: {token} is een onbekende zet",
    no_such_square: "halve zet {ply}: {token} noemt een veld dat de notatie {notation} niet heeft",
    against_tag: "; de tag zegt {tag}, maar de zetten staan op een bord van {board} en zijn in orde als {read_ok_as}",
    ambiguous: "halve zet {ply}: {token} past bij {moves:n} zetten die elk tot een volledige lezing leiden ({candidates}); {readings:n} lezingen in totaal",
    too_many_positions: "de lezingen groeien voorbij de grens van het naspelen (meer dan {most:n} stellingen bij halve zet {ply}): naspelen gestopt na halve zet {reached}",
    too_many_tracked: "de lezingen groeien voorbij de grens van het naspelen (meer dan {most:n} stellingen en zetten in totaal bij halve zet {ply}): naspelen gestopt na halve zet {reached}",
    unusable_fen: "onbruikbare FEN: {fen}",
    text_unreadable: "de tekst kan niet gelezen worden: {why}",
    too_many_plies: "{plies:n} halve zetten: meer dan de grens van {most:n} halve zetten per partij",
    no_rules_fit: "geen enkele regelset past bij de velden van de notatie",
    game_not_played: "GameType \"{game_type}\" is {game:t}, een spel dat pdndb niet speelt",
    unknown_game_type: "GameType \"{game_type}\" noemt geen spel dat pdndb kent",
    square_beyond_boards: "veld {square} ligt buiten elk bord waarop pdndb speelt (8×8 en 10×10)",
    empty_fen: "lege FEN",
    not_a_side: "`{text}` is geen kleur aan zet (verwacht: W, B of ?)",
    not_a_piece_list: "`{text}` is geen lijst van stukken (verwacht: W… of B…)",
    not_a_square: "`{text}` is geen veld",
    not_a_range: "`{text}` is geen reeks velden",
    other_board: "`{text}` staat op een ander bord dan de eerdere velden van de FEN",
    no_piece_lists: "`{text}` heeft geen lijsten van stukken",
    not_king_runs: "`{text}` is geen veld van damzetten (verwacht: +N[veld]+N[veld])",
    invalid_position: "ongeldige stelling: {problems}",
    square_off_board: "veld {square} staat niet op het bord",
    two_pieces: "twee stukken op veld {square}",
    man_on_crowning_row: "een schijf van {colour:t} op veld {square}, zijn eigen promotierij",
    too_many_pieces: "{pieces:n} stukken van {colour:t} (hoogstens {most:n})",
    more_like_it: " (en nog {more:n} zo)",
    more_like_it_on: " (en nog {more:n} zo: velden {squares})",
    unknown_switch: "onbekende regelschakelaar `{name}` (verwacht: {expected})",
    not_a_value_of: "`{value}` is geen waarde van `{key}` (verwacht: {expected})",
    not_key_value: "`{text}` heeft niet de vorm sleutel=waarde",
    holds: "ze bevat {list}",
    held_variant: "{variant} (partijen: {games:n})",
    holds_nothing: "ze bevat geen enkele partij",
    no_such_route: "zo'n adres bestaat niet: {path}",
    no_such_game: "geen partij {id} in de database",
    no_source: "partij {id} heeft geen brontekst",
    localhost_only: "deze server beantwoordt alleen verzoeken voor localhost",
    request_too_long: "het verzoek is {bytes:n} bytes lang; hoogstens {most:n} worden gelezen",
    busy: "de server is bezig: {running:n} verzoeken worden beantwoord en {waiting:n} wachten; probeer het over {seconds:n} s opnieuw",
    stopping: "de server stopt",
    query_stopped: "de zoekvraag is gestopt: {cause}",
    database_unavailable: "de database kan nu niet antwoorden: {cause}",
    sqlite_said: " (SQLite zei: {detail})",
    query_interrupted: "de zoekvraag duurde langer dan toegestaan",
    query_cancelled: "de server heeft de zoekvraag afgebroken",
    query_failed: "de zoekvraag is in de server mislukt",
    database_busy: "de database is vergrendeld door een andere verbinding",
    database_missing: "het databasebestand ontbreekt",
    database_unreadable: "het databasebestand kan niet geopend of gelezen worden",
    not_a_database: "het bestand is geen SQLite-database",
    database_corrupt: "de database is beschadigd",
    disk_full: "de schijf is vol",
    database_read_only: "de database kan niet beschreven worden",
    foreign_database: "de database is van een ander programma",
    database_too_new: "de database staat op schemastap {found}, nieuwer dan deze pdndb kent (stap {known})",
    database_outdated: "de database staat op schemastap {found}, ouder dan deze pdndb leest (stap {known}), en kan hier niet beschreven worden",
    database_failed: "de database faalde",
    no_board: "partij {id} heeft geen bord om te tonen: {reason}",
    not_replayed: "de partij is {status:t}",
    not_replayed_because: "de partij is {status:t}: {reason}",
    start_not_rebuilt: "de partij is {status:t}: haar beginstelling kan niet herbouwd worden volgens {variant}",
    unknown_parameter: "onbekende parameter {name}; dit adres neemt: {takes}",
    given_twice: "{param}: twee keer gegeven",
    too_long: "{param}: {bytes:n} bytes; hoogstens {most:n} worden gelezen",
    not_utf8: "de querystring kan niet gelezen worden: het is geen UTF-8",
    not_in_range: "{param}: {value} is geen geheel getal van {low:n} tot {high:n}",
    not_a_flag: "{param}: {value} is geen 1 of 0",
    bad_sort: "{param}: {value} is geen id, date, event of player",
    not_a_game_id: "{value} is geen partijnummer (een getal vanaf 1)",
    fen_and_moves: "geef fen of moves, niet beide",
    position_and_criteria: "geef fen of moves, of pattern, material en manoeuvre, niet beide",
    bad_fen: "{param}: onbruikbare FEN: {fen}",
    bad_moves: "{param}: de zetten kunnen niet gelezen worden: {why:t}",
    move_not_legal_here: "{param}: halve zet {ply}: {token} is hier geen reglementaire zet (reglementair: {legal})",
    no_move_left: "{param}: halve zet {ply}: {token} is hier geen reglementaire zet (er is geen, de partij is uit)",
    legal_elsewhere: "{param}: {reason} volgens {variant}; reglementair volgens {legal_under}: voeg {variant_param} {first} toe",
    unknown_variant: "{param}: onbekende variant \"{value}\" (verwacht: een van {expected})",
    bad_rules: "{param}: de regels kunnen niet gelezen worden: {switch}",
    variant_absent: "{param} {asked}: de database heeft geen partijen van {asked}; {held}",
    bad_date_range: "{param}: \"{value}\" is geen datumbereik: schrijf JJJJ, JJJJ.MM of JJJJ.MM.DD, de einden gescheiden door ..",
    bad_pattern: "{param}: {why:t}",
    bad_value: "{param}: {why:t}",
  },
  patterns: [
    ["^'(.)' is no kind of piece \\(W, B, X or E\\), in (.+)$", "'{1}' is geen soort stuk (W, B, X of E), in {2}"],
    ["^square (\\S+) is not on the (\\S+) board \\((.+)\\), in (.+)$", "veld {1} staat niet op het bord van {2} ({3}), in {4}"],
    ["^`(.+)` is not a square$", "`{1}` is geen veld"],
    ["^invalid position: two pieces on square (\\d+)$", "ongeldige stelling: twee stukken op veld {1}"],
    ["^(\\d+) games · (\\d+) positions indexed$", "{1:n} partijen · {2:n} stellingen geïndexeerd"],
    ["^Opening: (.+) \\(reached at ply (\\d+);$", "Opening: {1} (bereikt na halve zet {2};"],
    ["^leaves the named line at ply (\\d+)$", "verlaat de lijn bij halve zet {1}"],
    ["^Ballot: (.+)$", "Loting: {1}"],
    ["^ply (\\d+)$", "halve zet {1}"],
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
    ["^(\\d+) filtered games continue from here \\((.+)\\); score is for the side to move\\.$",
      "{1:n} gefilterde partijen gaan hier verder ({2}); de score is voor de partij aan zet."],
    ["^No stored filtered (.+) game continues from here\\.$", "Geen enkele gefilterde partij ({1}) gaat hier verder."],
    ["^(.+) is not a range of squares$", "{1} is geen reeks velden"],
    ["^(.+) is not a square number$", "{1} is geen veldnummer"],
    ["^(.+): a group ends with \\)$", "{1}: een groep eindigt met )"],
    ["^(.+): a section is W, B, X or E and its squares$", "{1}: een deel is W, B, X of E met zijn velden"],
    ["^(.+): an empty item$", "{1}: een leeg element"],
    ["^(.+): K and \\* go with W or B$", "{1}: K en * horen bij W of B"],
    ["^The board cannot show this pattern \\((.+)\\); the search reads it as written\\.$",
      "Het bord kan dit patroon niet tonen ({1:t}); het zoeken leest het zoals het geschreven is."],
    ["^square (.+)$", "veld {1}"],
    ["^\\((\\d+) exact\\)$", "({1:n} exact)"],
    ["^\\((\\d+) pattern\\)$", "({1:n} patroon)"],
    ["^game (\\d+) · ply (\\d+) · (\\S+) \\((White won|Black won|drawn|no result)\\)$", "partij {1} · halve zet {2} · {3} ({4:t})"],
    ["^(.+) \\(numeric (.+)\\)$", "{1} (numeriek {2})"],
    ["^(\\d+): ply (\\d+): (.+)$", "{1}: halve zet {2}: {3}"],
    ["^last move (.+)$", "laatste zet {1}"],
    ["^(.+):(\\d+) \\(game (\\d+)\\)$", "{1}:{2} (partij {3})"],
    ["^(\\d+) readings resolved$", "{1:n} lezingen opgelost"],
    ["^ply (\\d+ \\([^)]*\\)) (.+) is illegal$", "halve zet {1}: {2} is onreglementair"],
    ["^ply (\\d+ \\([^)]*\\)) (.+) is not a move$", "halve zet {1}: {2} is geen zet"],
    ["^ply (\\d+ \\([^)]*\\)) (.+) is an unknown move$", "halve zet {1}: {2} is een onbekende zet"],
    ["^ply (\\d+ \\([^)]*\\)) (.+) names a square that (\\S+) notation does not have$",
      "halve zet {1}: {2} noemt een veld dat de notatie {3} niet heeft"],
    ["^ply (\\d+ \\([^)]*\\)) (.+) fits (\\d+) moves that each lead to a complete reading \\((.+)\\); (\\d+) readings in all$",
      "halve zet {1}: {2} past bij {3:n} zetten die elk tot een volledige lezing leiden ({4}); {5:n} lezingen in totaal"],
  ],
};

/** Every language: its own name, its words, the server's messages by code, and patterns (English: none needed). */
export const LANGUAGES = {
  en: { name: "English", words: {}, said: {}, patterns: [] },
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
        if (how === "t") return t(part);
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

/** A template's `{name}`, `{name:n}` and `{name:t}` filled from `parts`; null when it names a part there is none of. */
function filled(template, parts) {
  let missing = false;
  const out = template.replace(/\{(\w+)(?::([nt]))?\}/g, (_, name, how) => {
    if (parts[name] === undefined || parts[name] === null) { missing = true; return ""; }
    const part = String(parts[name]);
    if (how === "n") return formatNumber(part);
    if (how === "t") return t(part);
    return part;
  });
  return missing ? null : out;
}

const isMessage = (part) => part !== null && typeof part === "object" && typeof part.code === "string";

/**
 * The parts of a message as its template takes them: a message within it
 * in the language, a list of messages joined by `; `, the `squares` of a
 * kind of problem (with `…` when it has more), what a database holds
 * (`held`) in words, any other list as the language lists alternatives;
 * null when the language has no words for one of them.
 */
function worded(parts) {
  const out = {};
  for (const [name, part] of Object.entries(parts)) {
    let value = part;
    if (isMessage(part)) value = said(part);
    else if (Array.isArray(part) && name === "held") value = holdings(part);
    else if (Array.isArray(part) && name === "squares") value = part.join(", ") + (parts.more_squares ? ", …" : "");
    else if (Array.isArray(part) && part.every(isMessage)) {
      const each = part.map(said);
      value = each.includes(null) ? null : each.join("; ");
    } else if (Array.isArray(part)) value = new Intl.ListFormat(language, { type: "disjunction" }).format(part.map(String));
    if (value === null) return null;
    out[name] = value;
  }
  return out;
}

/** What a database holds (`[{variant, games}]`, most first) in words; null without words for it. */
function holdings(held) {
  const { holds, held_variant: one, holds_nothing: nothing } = table.said;
  if (!held.length) return typeof nothing === "string" ? nothing : null;
  if (typeof holds !== "string" || typeof one !== "string") return null;
  const each = held.map((h) => filled(one, h));
  return each.includes(null) ? null : filled(holds, { list: listOf(each) });
}

/**
 * A message the server sent as a code and its parts (`{code, parts}`) in
 * the language; null when the language has no words for it or for one of
 * its parts (then the server's English text is shown). A record's message
 * whose parts name a tag the moves contradict (`tag`) ends with the words
 * for `against_tag`; a problem of a set-up with others like it (`more`)
 * with those for `more_like_it` (`more_like_it_on` when it names their
 * squares); a database failure with what SQLite said (`detail`, shown as
 * it is) with those for `sqlite_said`.
 */
export function said(message) {
  if (!isMessage(message)) return null;
  const template = table.said[message.code];
  if (typeof template !== "string") return null;
  const parts = worded(message.parts || {});
  if (parts === null) return null;
  const ends = [];
  if (parts.tag !== undefined) ends.push(table.said.against_tag);
  if (parts.more !== undefined) ends.push(table.said[parts.squares ? "more_like_it_on" : "more_like_it"]);
  if (parts.detail !== undefined) ends.push(table.said.sqlite_said);
  if (ends.some((end) => typeof end !== "string")) return null;
  const texts = [template, ...ends].map((one) => filled(one, parts));
  return texts.includes(null) ? null : texts.join("");
}

const ATTRIBUTES = ["title", "placeholder", "aria-label", "alt"];
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
  return element && element.closest("[translate=no], script, style, textarea");
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

/**
 * A sentence with parts in it, as nodes to put on the page: `english`
 * (with `{1}`, `{2}`… where the parts go) in the language, each part (a
 * node, or a text shown as it is) in its place. Its text is not looked up
 * again.
 */
export function sentence(english, ...parts) {
  const template = language === "en" ? english : (table.words[english] ?? english);
  const kept = (text) => {
    const node = document.createTextNode(text);
    done.set(node, text);
    return node;
  };
  return template.split(/(\{\d\})/).filter(Boolean).map((piece) => {
    const slot = /^\{(\d)\}$/.exec(piece);
    if (!slot) return kept(piece);
    const part = parts[Number(slot[1]) - 1];
    return part instanceof Node ? part : kept(String(part ?? ""));
  });
}

/** A list of texts joined as the language joins them ("a, b and c"). */
export function listOf(texts) {
  return new Intl.ListFormat(language, { type: "conjunction" }).format(texts);
}

/** The window's title, each of its parts (`·` between them) in the language. */
function translateTitle() {
  if (language === "en") return;
  const out = document.title.split(" · ").map((part) => t(part)).join(" · ");
  if (out !== document.title) document.title = out;
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
translateTitle();
translate(document.body);
new MutationObserver((records) => {
  for (const record of records) {
    if (record.type === "characterData") translateText(record.target);
    else if (record.type === "attributes") translateAttributes(record.target);
    else for (const node of record.addedNodes) translate(node);
  }
}).observe(document.body, { childList: true, subtree: true, characterData: true, attributes: true, attributeFilter: ATTRIBUTES });
