// What the browser client receives from the server and sends to it (docs/protocol.md), beside the
// game view itself, whose types are generated from docs/view.schema.json into view.d.ts. Written
// by hand: keep it in step with docs/protocol.md, src/cardtable/web/app.py and rooms.py.
// Only tsc reads this file (the JSDoc of the client imports it); the browser never loads it.

import type { FamilyView, GameResult, QuteView, View } from "./view";

export type { View } from "./view";

/** An event of a Cabo-family view (and of the `state` frames of such a game). */
export type FamilyEvent = FamilyView["events"][number];
/** An event of a Qute view. */
export type QuteEvent = QuteView["events"][number];
/** Any event of any view: `type` tells them apart. */
export type ViewEvent = FamilyEvent | QuteEvent;
/** The `type` of an event. */
export type EventType = ViewEvent["type"];
/** A finished round of either kind of game (an entry of `view.round_results`). */
export type RoundResult = View["round_results"][number];

/** How an event's words weigh (cardtable.text.phrase's Tone): `quiet` a turn begins, `strong`
 * a round begins or ends, `call` the end is called, `alarm` a penalty, `note` the table changed
 * by itself. */
export type Tone = "plain" | "quiet" | "strong" | "call" | "alarm" | "note";

/** An event in words, from this connection's side, phrased by the server (cardtable.text.phrase,
 * the terminal's words too): seats as the page names them ("you", "Ann", "Casual AI"), cards as
 * tokens ("[7H]", drawn by said.js); a move the clock or a stand-in chose says so in front. */
export interface Said {
  text: string;
  tone: Tone;
}

/** An event as the server sends it: its fields as this connection may see them, and its words
 * (phrased from what this connection may read again later: a card seen only for a moment is
 * never named). */
export type ToldEvent = ViewEvent & { said: Said };

/** A view of either game whose events come with their words (a replay's views). */
export type ToldView =
  | (Omit<FamilyView, "events"> & { events: (FamilyEvent & { said: Said })[] })
  | (Omit<QuteView, "events"> & { events: (QuteEvent & { said: Said })[] });

// --- HTTP --------------------------------------------------------------------------------------

/** A seat as anyone may know it (`seats` of a room summary and of every `state` frame). */
export interface SeatInfo {
  type: "human" | "ai";
  /** The AI level (`null` for a person). */
  level: string | null;
  /** The person's display name, if they gave one. */
  name: string | null;
  taken: boolean;
  online: boolean;
  memory_aid: boolean;
  /** A person whose time ran out and who has not come back since. */
  away: boolean;
  /** The AI level playing for a person who missed several turns in a row, until they are back. */
  stand_in: string | null;
  /** How many actions of this seat in the current game were not chosen by its own player:
   * played by the turn clock (or a timed window closing), or by an AI standing in. */
  played_for: PlayedFor;
  /** A person who asked for hints at a table of people: they have the memory aid from then on
   * (a handicap everyone sees, shown by their name). */
  hints: boolean;
}

/** Counts of a seat's actions in the current game chosen by someone else than its player. */
export interface PlayedFor {
  clock: number;
  stand_in: number;
}

/**
 * Who chose an action when it was not the seat's own player: `clock` — the time ran out (the
 * turn clock, or a timed window closing) and the server played the engine's timeout move
 * (`name`: the seat's display name); `stand_in` — an AI played for a person who is away
 * (`name`: the AI's label, e.g. "Casual AI"). A person's own move, and an AI seat's own move,
 * have no `By` (`null`).
 */
export interface By {
  seat: number;
  kind: "clock" | "stand_in";
  name: string;
}

/**
 * A rematch offered once the game is over: who offered it, which seats accepted (the offerer
 * and every AI seat at once) and which declined. The next game starts when every person's seat
 * accepted; a decline ends the offer (it stays, with `declined` not empty, until a new offer or
 * the next game), so everyone can be told who declined.
 */
export interface RematchOffer {
  by: number;
  accepted: number[];
  declined: number[];
}

/** A room's status: seats still free (or waiting for `start`), in play, its game over, or
 * closed (its game was recorded under other rules than the server plays). */
export type RoomStatus = "waiting" | "playing" | "finished" | "closed";

/** The resolved options of a room (`target`: `null` for one round, else a match's target). */
export interface RoomOptions {
  target?: number | null;
  [name: string]: unknown;
}

/** `GET /api/rooms/{room}` (and each entry of `GET /api/rooms`). */
export interface RoomSummary {
  room: string;
  game: string;
  title?: string | null;
  players: number;
  options: RoomOptions;
  status: RoomStatus;
  game_no: number;
  version: number;
  created: number;
  seats: SeatInfo[];
  /** Whether the room has a chat (at least two of its seats are people's). */
  chat: boolean;
  /** Whether spectators may write in the chat (they always read it). */
  spectator_chat: boolean;
  /** Seconds each person has per turn or decision (0: no clock). */
  turn_time?: number;
  /** Whether quick play opened the room. */
  quickplay?: boolean;
  /** A quick-play room waiting for people: seconds until AI players take its open seats. */
  ai_fill_in?: number;
  /** The rematch offered in the room, if any (see RematchOffer). */
  rematch: RematchOffer | null;
  /** Whether people may ask for hints at this table of people (at a table of one person and AI
   * players they always may). */
  hints: boolean;
  /** A practice table: its one person asked to see the AI players' cards (its games are never
   * rated). */
  practice: boolean;
  /** A rated table: its games count for the ratings; only signed-in players sit at it, without
   * the memory aid or hints. */
  rated: boolean;
}

/** `GET /api/rooms`: the lobby. */
export interface RoomList {
  rooms: RoomSummary[];
}

/** An option of a variant, as `/api/variants` lists it. */
export interface VariantOption {
  name: string;
  default: unknown;
  doc: string;
  choices: unknown[] | null;
}

/** One entry of `GET /api/variants`: a game and what the client shows of it. */
export interface VariantInfo {
  name: string;
  title?: string | null;
  summary?: string | null;
  /** The kind of game: `cabo` (the Cabo family's memory table) or `qute` (shedding). */
  family: string;
  min_players: number;
  max_players: number;
  default_players?: number | null;
  options?: VariantOption[];
  /** The call word (`cabo`, `knock`, `qute` …) and how its button reads. */
  call?: string | null;
  call_label?: string | null;
  /** Card code → points at the end of a round (Qute: a card left in hand). */
  values?: Record<string, number>;
  /** Card code → points, for the cards whose value is unusual (drawn as a badge). */
  value_marks?: Record<string, number>;
  // Cabo family only:
  /** Card code → the power word printed on the card. */
  powers?: Record<string, string>;
  hand_size?: number;
  initial_peeks?: number;
  auto_peek?: number[];
  hand_layout?: "row" | "square";
}

/** A level's calibrated rating in one game type: points and its interval (mu ± 2 sigma). */
export interface LevelRating {
  rating: number;
  low: number;
  high: number;
}

/** One entry of `GET /api/levels`. */
export interface LevelInfo {
  name: string;
  description?: string | null;
  /** Its rating in each game type it was calibrated in, by game. */
  ratings?: Record<string, LevelRating>;
}

/** `GET /api/rules/{variant}`. */
export interface RulesText {
  variant: string;
  title?: string | null;
  markdown: string;
  // With ?plain=1 (cards as {{KH}} tokens):
  /** The language the page is written in (`en`, `de`). */
  lang?: string;
  /** The dialog's heading in that language ("Regeln: Gabo"). */
  heading?: string;
}

/** A seat of a create body. */
export interface SeatRequest {
  type: "human" | "ai";
  level?: string;
  memory_aid?: boolean;
}

/** `POST /api/rooms`'s body. */
export interface CreateRoomBody {
  game: string;
  players?: number;
  options?: { target: number | null };
  seats: SeatRequest[];
  name?: string;
  public?: boolean;
  autostart?: boolean;
  memory_aid?: boolean;
  /** Seconds each person has per turn or decision, 10 to 600 (default: the server's). */
  turn_time?: number;
  /** Spectators may write in the room's chat (default false: they only read it). */
  spectator_chat?: boolean;
  /** People may ask for hints at this table of people (each who does is marked and gets the
   * memory aid); at a table of one person and AI players hints are always allowed. */
  hints?: boolean;
  /** The table is rated: only for a signed-in creator, with no memory aid and no hints; every
   * person's seat must be a signed-in player's. */
  rated?: boolean;
}

/** The answer of `POST /api/rooms` (`seat`, `token` null when every seat is an AI). */
export interface CreatedRoom {
  room: string;
  seat: number | null;
  token: string | null;
  url?: string;
}

/** The answer of `POST /api/rooms/{room}/join`. */
export interface JoinedSeat {
  room?: string;
  seat: number;
  token: string;
}

/** The seat this browser holds in a room (localStorage `cardtable:seat:<room>`). */
export interface HeldSeat {
  seat: number;
  token: string;
}

/** One game of `GET /api/rooms/{room}/games`. */
export interface GameEntry {
  game_no: number;
  status: "playing" | "finished";
  started: number | string | null;
  finished: number | string | null;
  actions: number;
  result: GameResult | null;
}

/** `GET /api/rooms/{room}/games`. */
export interface GameList {
  room: string;
  games: GameEntry[];
}

/** One step of a replay: the action and the view after it (its events told from the side of
 * the replay's viewer). */
export interface ReplayStep {
  seat: number;
  action: string;
  /** Who chose the action, when not the seat's own player (`null`: its player did). */
  by: By | null;
  view: ToldView;
  /** The `seq` of the first event the step caused. */
  first_event?: number;
  /** A step that ended a round of a match: the table at that round's end. */
  end_view?: ToldView;
}

/**
 * `GET /api/rooms/{room}/games/{n}?start=&count=`: one page of a finished game, move by move:
 * at most `count` steps (≤ 200, default 100) from index `start` (step `start + 1`), fewer when
 * they would pass the page's size bound.
 */
export interface Replay {
  room: string;
  game_no: number;
  game: string;
  players: number;
  seats: SeatInfo[];
  result: GameResult | null;
  /** Number of steps of the whole game. */
  total: number;
  /** Index of this page's first step. */
  start: number;
  steps: ReplayStep[];
  /** `start` of the following page; `null` after the last step. */
  next: number | null;
  /** The view before the first step: on the page from `start` 0 only. */
  initial?: ToldView;
}

// --- the WebSocket -----------------------------------------------------------------------------

/** The id a client may give a message; its answer carries it back. */
export type MessageId = number | string;

/** The turn clock: the people's seats to act and the seconds before their move is played. */
export interface TurnClock {
  seats: number[];
  /** Seconds left (frozen while `paused`). */
  closes_in: number;
  /** Held by the only person at the table (a `hold`): the time does not run. The server
   * always sends it (`false` when running); optional only for frames the client builds. */
  paused?: boolean;
}

/** A timed window open now (a snap window, the initial peeks). */
export interface TimedWindow {
  phase: string;
  /** Seconds left (frozen while `paused`). */
  closes_in: number;
  /** Held by the only person at the table (a `hold`): the time does not run. The server
   * always sends it (`false` when running); optional only for frames the client builds. */
  paused?: boolean;
}

/**
 * One accepted action of the current game in the `log` of the `state` answering a `join`:
 * its events as this connection may read them now (a seat without memory aid and a spectator:
 * the public parts; a seat with memory aid: everything it saw). The game's deal is the entry
 * with `seat` `null` (its `version` is the game's first).
 */
export interface LogEntry {
  version: number;
  seat: number | null;
  by: By | null;
  events: ToldEvent[];
}

/** The `state` frame: the room and the game as this connection's seat sees them. */
export interface StateMessage {
  type: "state";
  room: string;
  version: number;
  game_no: number;
  status: RoomStatus;
  /** The seat of this connection; `null` for a spectator. */
  seat: number | null;
  seats: SeatInfo[];
  /** The view of the current game; `null` before the first game. */
  view: View | null;
  /** The events of the action that caused this state, as this seat sees them, with their
   * words. */
  events: ToldEvent[];
  window: TimedWindow | null;
  /** The turn clock, while people are to act outside a timed window. */
  clock: TurnClock | null;
  /** Who chose the action this frame reports, when not the seat's own player; `null` for a
   * person's own move, an AI seat's own move, and frames that report no action. */
  by: By | null;
  /** The rematch offered in the room, if any. */
  rematch: RematchOffer | null;
  /** A quick-play room waiting for people: seconds until AI players take its open seats. */
  ai_fill_in?: number;
  /** On the frame answering a `join` at a room with a chat only: its last lines. */
  chat_log?: ChatLog;
  /** On the frame answering a `join` only: the current game's moves so far, oldest first (at
   * most the last 300 entries; a first entry with `seat` `null` is the deal, so the log is
   * whole). */
  log?: LogEntry[];
  /** On the frame answering a `hold` only: whether the room's clocks and AI players are held
   * now (`false`: other people sit at the table, so the clocks go on, or no hold is left). */
  held?: boolean;
  /** To the one person at a table of AI players only: whether the AI players' cards are shown
   * face up in `view` (a practice table; see the `practice` message). */
  open_hands?: boolean;
  id?: MessageId;
}

/** The `error` frame. */
export interface ErrorMessage {
  type: "error";
  code: string;
  message: string;
  id?: MessageId;
}

/** A quick reaction of the chat (the client shows each as a short label). */
export type ChatReaction = "gg" | "nice" | "oops" | "thinking" | "thanks" | "hurry";

/** The `chat` frame: one line or quick reaction, sent to every connection of the room. */
export interface ChatMessage {
  type: "chat";
  room: string;
  /** Numbers the room's chat lines from 1 (a new count once the room is rebuilt). */
  seq: number;
  /** When the server accepted it (Unix seconds). */
  at: number;
  /** The seat that said it; `null`: a spectator. */
  seat: number | null;
  /** The seat's display name, or "Spectator". */
  name: string;
  /** The line, plain text: show it only as text, never as markup (`null` for a reaction). */
  text: string | null;
  reaction: ChatReaction | null;
  /** On the sender's copy only, if its message had an id. */
  id?: MessageId;
}

/** The `chat_log` of the `state` answering a `join` at a room with a chat. */
export interface ChatLog {
  /** The room's last lines (at most 50), oldest first. */
  lines: ChatMessage[];
  /** Whether this connection may send `chat`. */
  writable: boolean;
}

/** One legal move of a hint, with what the search expects of it. */
export interface HintRow {
  /** The move, as `act` sends it. */
  action: string;
  /** The move in plain words, in the hint's language (cards as tokens, "[7H]"). */
  words: string;
  /** Expected points of the round after the move (fewer are better). */
  points: number;
  /** Chance to win the round after the move (0 to 1). */
  win: number;
  /** Expected points it gives away against the best move. */
  loss: number;
  /** The search's choice (the first row). */
  best: boolean;
}

/** The hint panel's words, in the hint's language. */
export interface HintLabels {
  title: string;
  /** How the rows are ranked (the search's weighing, win chance first). */
  order: string;
  best: string;
  points: string;
  win: string;
  play: string;
  close: string;
  thinking: string;
  /** The button that asks for hints anyway, at a table of people. */
  accept: string;
  /** The mark by the name of a seat that asked for hints. */
  badge: string;
}

/** The `hint` frame, to the asking connection only: every legal move of the seat's decision at
 * `version`, best first; no rows when it only says what asking means (`handicap`). */
export interface HintMessage {
  type: "hint";
  room: string;
  version: number;
  rows: HintRow[];
  /** Worlds the search dealt. */
  deals: number;
  labels: HintLabels;
  /** At a table of people, before the seat's first hint: what asking means (accept with
   * `handicap: true`). */
  handicap?: string;
  id?: MessageId;
}

/** Any frame the server sends. */
export type ServerMessage =
  | StateMessage
  | ErrorMessage
  | ChatMessage
  | HintMessage
  | { type: "pong" };

/** What a client sends (`room` and `id` are added by RoomConnection.send). */
export type ClientMessage =
  /** `lang`: the language the connection reads (a tag: "de", "de-AT"); the server's if none. */
  | { type: "join"; room: string; token?: string; lang?: string }
  | { type: "act"; room?: string; token?: string; action: string; version: number; id?: MessageId }
  | { type: "start"; room?: string; token?: string; id?: MessageId }
  /** Without `accept`: offer a rematch (or accept the open offer); with it: answer the offer. */
  | { type: "rematch"; room?: string; token?: string; accept?: boolean; id?: MessageId }
  /** Hold the clocks while the person reads something (the results, help, the rules). */
  | { type: "hold"; room?: string; token?: string; on: boolean; id?: MessageId }
  | {
      type: "chat";
      room?: string;
      token?: string;
      text?: string;
      reaction?: ChatReaction;
      id?: MessageId;
    }
  /** Every legal move of the seat's decision, ranked (`lang`: the language of its words;
   * `handicap`: accept being marked at a table of people). */
  | {
      type: "hint";
      room?: string;
      token?: string;
      version: number;
      lang?: string;
      handicap?: boolean;
      id?: MessageId;
    }
  /** Show the AI players' cards face up (`on`), or face down again: the one person at a table of
   * AI players only; the first `on` makes the room a practice table for good. */
  | { type: "practice"; room?: string; token?: string; on: boolean; id?: MessageId }
  | { type: "ping" };

/** The connection's state, as RoomConnection's "status" events report it. */
export type ConnStatus = "connecting" | "open" | "waiting" | "closed";

/** The detail of RoomConnection's "status" events. */
export interface StatusDetail {
  status: ConnStatus;
  /** Milliseconds until the next attempt (status `waiting`). */
  retryIn: number | null;
}

// --- accounts, profiles and leaderboards (web/accounts.py) ---------------------------------------
// The session is an HttpOnly cookie (`ct_session`): the client learns who is signed in from
// `GET /api/account`, never from the cookie.

/** A signed-in player as `/api/account` names them. */
export interface AccountPlayer {
  name: string;
  /** When the account was made (Unix seconds). */
  created: number;
}

/** `GET /api/account`, and the answers of sign-up, sign-in, sign-out and delete. */
export interface AccountAnswer {
  player: AccountPlayer | null;
}

/** A seat this browser holds, as `POST /api/account/claim` takes it. */
export interface ClaimedSeat {
  room: string;
  seat: number;
  token: string;
}

/** `POST /api/account/claim`: how many of the seats sent became the account's games. */
export interface ClaimAnswer {
  claimed: number;
}

/** One open table (waiting or playing) of the signed-in player, on any device. */
export interface YourTable {
  room: string;
  seat: number;
  game: string;
  status: RoomStatus;
  url: string;
}

/** `GET /api/account/tables`. */
export interface YourTables {
  tables: YourTable[];
}

/** `POST /api/account/tables/{room}/resume`: a fresh key for the player's seat there. */
export interface ResumedSeat {
  room: string;
  seat: number;
  token: string;
}

/** One person the signed-in player played with lately. */
export interface PlayedWith {
  name: string;
  games: number;
  /** When they last played together (Unix seconds). */
  last: number;
}

/** `GET /api/account/played-with`. */
export interface PlayedWithList {
  players: PlayedWith[];
}

/** A player's rating in one game type: points with its interval, and the model's numbers. */
export interface PlayerRating {
  rating: number;
  low: number;
  high: number;
  mu: number;
  sigma: number;
  /** The rated games it rests on. */
  games: number;
}

/** A player's numbers in one game type. */
export interface PlayerGameStats {
  played: number;
  won: number;
  /** The average score of a round (null: none played). */
  avg_score: number | null;
  /** The average total of a game. */
  avg_total?: number | null;
  /** Null: not rated in this game yet. */
  rating: PlayerRating | null;
}

/** A seat of a recent game. */
export interface RecentSeat {
  seat: number;
  name: string | null;
  type: "human" | "ai";
  level: string | null;
  /** The name of the account that sat there (null: a guest, an AI or a deleted account, with no
   * profile). */
  account: string | null;
}

/** One of a player's recent finished games. */
export interface RecentGame {
  room: string;
  game_no: number;
  game: string;
  finished: number;
  /** The player's seat at it. */
  seat: number;
  score: number;
  place: number;
  won: boolean;
  rated: boolean;
  players: RecentSeat[];
  replay: string;
  review: string;
}

/** One point of a player's rating over time. */
export interface RatingPoint {
  at: number;
  rating: number;
  low: number;
  high: number;
}

/** `GET /api/players/{name}`. */
export interface PlayerProfile {
  name: string;
  created: number;
  /** An account deleted (its games kept under "deleted player"). */
  deleted?: boolean;
  games: Record<string, PlayerGameStats>;
  recent: RecentGame[];
  history: Record<string, RatingPoint[]>;
}

/** A person on a leaderboard. */
export interface LeaderboardEntry {
  rank: number;
  name: string;
  rating: number;
  low: number;
  high: number;
  mu?: number;
  sigma?: number;
  games: number;
}

/** An AI level on a leaderboard's scale. */
export interface LeaderboardLevel {
  level: string;
  rating: number;
  low: number;
  high: number;
}

/** `GET /api/leaderboard/{game}`. */
export interface Leaderboard {
  game: string;
  /** The rated games a person needs to be listed. */
  min_games: number;
  players: LeaderboardEntry[];
  levels: LeaderboardLevel[];
}
