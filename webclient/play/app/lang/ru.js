// Русский.
function plural(n, one, few, many) {
  const d = n % 10;
  const dd = n % 100;
  if (d === 1 && dd !== 11) return one;
  if (d >= 2 && d <= 4 && (dd < 12 || dd > 14)) return few;
  return many;
}
const moves = ({ n }) => `${n} ${plural(Number(n), "ход", "хода", "ходов")}`;
const cards = ({ n }) => `${n} ${plural(Number(n), "карта", "карты", "карт")}`;

export default {
  nav_today: "Сегодня", nav_boards: "Рейтинги", nav_profile: "Профиль", nav_past: "Прошлые дни",
  title_today: "Сегодня", title_play: "Игра", title_boards: "Рейтинги", title_me: "Профиль", title_past: "Прошлые дни",
  language: "Язык", sign_out: "Выйти", loading: "Загрузка…", loading_deals: "Тасуем сегодняшние расклады…",
  api_unreachable: "Сервер Haven недоступен. Попробуйте чуть позже.",
  welcome: "Добро пожаловать в Haven",
  welcome_text: "Каждый день по одному проверенному решателем раскладу для каждой игры, один и тот же для всех. Войдите или создайте учётную запись.",
  username: "Имя пользователя", password: "Пароль (от 8 символов)", sign_in: "Войти", register: "Создать учётную запись",
  fill_both: "Введите имя пользователя и пароль.",
  tokens_note: "Вход действует, пока страница открыта; после перезагрузки войдите снова.",
  sign_in_first: "Сначала войдите (вверху страницы).",
  todays_deals: "Расклады дня", utc_day: "{date} (UTC)", par: "Пар", rules: "Правила",
  verdict_winnable: "решаемый", verdict_unwinnable: "нерешаемый", verdict_unknown: "ещё не решён",
  not_played: "Ещё не сыгран", in_progress: (v) => `Идёт игра · ${moves(v)}`, won_in: (v) => `Победа за ${moves(v)}`,
  played_lost: (v) => `Проигрыш · в домах ${cards(v)}`, played_expired: (v) => `Истекла · в домах ${cards(v)}`, played_resigned: (v) => `Сдался · в домах ${cards(v)}`,
  play_ranked: "Играть на рейтинг", resume: "Продолжить", view_play: "Посмотреть", board: "Рейтинг", no_deal: "На этот день расклада нет.",
  unfinished: "Незаконченные игры", ranked: "рейтинговая", practice: "Тренировка", moves_n: moves,
  practice_text: "Без рейтинга и без ограничений: случайный расклад, свой номер (seed) или номер игры PySolFC.",
  preset: "Игра", deal_by: "Расклад по", seed: "Seed", pysol_number: "Номер игры PySolFC", number: "Номер",
  random: "случайно", start_practice: "Начать тренировку",
  option_partial_runs: "Переносить часть последовательности", option_classic_supermove: "Классический суперход (только ячейки)",
  ranked_on: "Рейтинг · {date}", moves_label: "Ходы", home_label: "В домах", undos_label: "Отмены", time_label: "Время",
  undo: "Отменить", resign: "Сдаться", resign_confirm: "Сдать эту партию?", yes_resign: "Да, сдаться", no: "Нет",
  undo_rule_ranked: "Рейтинговая игра: каждая отмена считается ходом, а ход, открывший закрытую карту или сдавший карты из колоды, отменить нельзя.",
  undo_rule_practice: "Тренировка: отменять можно всё; каждая отмена считается ходом.",
  keys_help: "Клавиши: 1–9, 0 столбцы · F дом · Q W E R ячейки · W отбой · D сдать · U отменить · ↑↓ больше или меньше карт · ←→ и Enter выбирают стопку · Esc отмена. Двойной щелчок отправляет карту в дом.",
  hint_select: "Коснитесь карты (или перетащите её), затем места, куда её положить.",
  hint_target: "Куда положить {card}? Зелёные стопки её примут.",
  sending: "Отправка…", retry: "Повторить",
  connection_lost: "Связь прервалась. Ход сохранён: «Повторить» отправит тот же самый ход, дважды он не засчитается.",
  connection_lost_short: "Связь прервалась. Попробуйте ещё раз.",
  something_wrong: "Что-то пошло не так.",
  status_won: "Победа!", status_lost: "Ходов больше нет.", status_expired: "Партия истекла: день закончился раньше.", status_resigned: "Партия сдана.",
  result_won: "Победа!", result_lost: "Ходов больше нет", result_expired: "Партия истекла", result_resigned: "Партия сдана",
  your_rank: "Место {rank} в сегодняшнем рейтинге", rank_pending: "Ваш результат в сегодняшнем рейтинге.",
  practice_unranked: "Тренировочные игры не входят в рейтинг.",
  see_board: "К рейтингу", view_table: "Посмотреть стол",
  stock_n: "Колода, {n}", waste: "Отбой", cell_n: "Ячейка {n}", column_n: "Столбец {n}",
  face_down_n: "закрытых: {n}", foundation: "Дом", foundation_of: "Дом: {suit}",
  move_deal: "Сдать", move_undo: "Отмена", move_resign: "Сдаться",
  suit_S: "пики", suit_H: "червы", suit_D: "бубны", suit_C: "трефы",
  rank_A: "Туз", rank_2: "2", rank_3: "3", rank_4: "4", rank_5: "5", rank_6: "6", rank_7: "7",
  rank_8: "8", rank_9: "9", rank_T: "10", rank_J: "Валет", rank_Q: "Дама", rank_K: "Король",
  boards: "Рейтинги", board_daily: "Сегодня", board_weekly: "Эта неделя", "board_all-time": "За всё время",
  top: "Лучшие", around_me: "Рядом с вами", board_empty: "В этом рейтинге пока никого нет.",
  player: "Игрок", result: "Результат", won: "победа", wins: "Победы", points: "Очки", plays: "Игры",
  current_streak: "Текущая серия (дни)", best_streak: "Лучшая серия", win_rate: "Доля побед",
  no_ranked_yet: "Рейтинговых игр пока нет.", best_ranks: "Лучшие места",
  past_days: "Прошлые дни", date: "Дата", not_published: "Расклад и решение публикуются, когда рейтинговые партии дня закрыты, через несколько минут после полуночи UTC.", no_solution: "Для этого расклада решение не опубликовано.",
  past_text: "Расклад дня ({verdict}) и решение решателя: пар {par}.",
  replay_start: "Начальный расклад. Пар: {par}.", move_of: "Ход {k} из {n}",
  autoplay: "Воспроизвести", first: "В начало", previous: "Назад", next: "Вперёд", last: "В конец",
  nav_tournaments: "Турниры", title_tournaments: "Турниры", tournaments: "Турниры",
  live_board: "Рейтинг в реальном времени", live_rank: "Вы на {n}-м месте", standings: "Таблица", join: "Участвовать", joined: "Вы участвуете",
  entrants: "Игроков: {n}", no_tournaments: "Сейчас нет турниров, в которых можно участвовать.",
  tournament_upcoming: "Скоро начнётся", tournament_running: "Идёт", tournament_closed: "Завершён, итоги скоро", tournament_final: "Итоги",
};
