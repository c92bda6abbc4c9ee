// The web board's pages: the match page (anyone: the public view) and the player page (the
// player's own view, played by clicking). Both show the bot's own picture of the board; the
// player page lays a button over each square (cells.js), lights the squares the picked piece's
// actions point at, and sends the one pressed. Live updates come from live.js. Every word it
// shows is the server's: the state's, or the page's words (words.js), in the state's language.

import { drawCells } from "./cells.js";
import { hideChooser, offer, proposalItems, setupFieldset, span } from "./forms.js";
import { follow } from "./live.js";
import { renderPlan, wirePlan } from "./plan.js";
import { dateLocale, label, speak, t, tn } from "./words.js";

// "match" or "play"; "activity" (the player page's shell inside Discord) until its sign-in
// says which: a player's seat plays as the player page, anyone else watches as the match page.
let PAGE = document.body.dataset.page;
const TOKEN_KEY = "tora-board-token";
let TOKEN = PAGE === "play" ? takeToken() : "";
// in an Activity: the match its channel holds; on a player page whose link ended with the
// match: that match, its page shown instead
let MATCH = "";
// In an Activity: the pass its sign-in gave, sent with every request so that the server
// counts them against the user's allowances (every user comes from Discord's proxy's address).
let PASS = "";
// How often the page asks for a fresh pass (each is good for a day): a page left open for days
// (a correspondence match) stays counted as its user's, with chances to spare if one fails.
const RENEW_MS = 3 * 3600 * 1000;
const $ = (id) => document.getElementById(id);
// the tab's icons, of this build as the page's modules are (their address names it)
const ICONS = {
  waiting: new URL("icon.svg", import.meta.url).href,
  yours: new URL("icon-turn.svg", import.meta.url).href,
};
// What a player page has that the watchers of an Activity do not see.
const PLAYING_ONLY = ["prompt", "chooser", "decisions", "legend", "setup", "turn", "plan", "proposals", "more"];

const ui = {
  state: null,
  picked: null, // the key of the picked group of actions
  replay: null, // null: the position now; else the turn whose picture is shown
  flipped: false,
  sending: Promise.resolve(), // the last request sent (post): the next waits for it
  picture: null, // the blob URL of the picture shown
  pictureUrl: null, // and where it came from
  replayed: null, // a replay's picture's squares (replayedSquares): null for the board now
  pressed: null, // the square last pressed
  connection: "connecting", // the live stream's status (live.js's key)
  connectionWhy: "", // and the server's words for it, where it refused the stream
  loadError: "", // what the last failed read of the state said ("": it did not fail)
  reads: 0, // the reads of the state asked for: only the latest one's answer is shown
};

/** The player's token, from the address's fragment (then taken out of the address bar, so it
 * is neither bookmarked nor shown), kept for this tab only. */
function takeToken() {
  const fragment = location.hash.slice(1);
  if (fragment) {
    sessionStorage.setItem(TOKEN_KEY, fragment);
    history.replaceState(null, "", location.pathname + location.search);
  }
  return sessionStorage.getItem(TOKEN_KEY) || "";
}

function headers() {
  const sent = PAGE === "play" ? { Authorization: `Bearer ${TOKEN}` } : {};
  if (PASS) sent["X-Activity-Pass"] = PASS;
  return sent;
}

function matchId() {
  return MATCH || decodeURIComponent(location.pathname.split("/")[2] || "");
}

function stateUrl() {
  return PAGE === "play" ? "/api/me" : `/api/m/${encodeURIComponent(matchId())}`;
}

// ---- talking to the server ---------------------------------------------------------------

/** Read the state and show it. What a failed read says (the server could not be reached,
 * or answered an error) stays until a read succeeds, then goes: the page works again. The
 * answer of a read asked for before another is dropped: answers may come in any order, and
 * an older state put up after a newer one would stay until the next change. */
async function load() {
  const read = ++ui.reads;
  try {
    const response = await fetch(stateUrl(), { headers: headers(), cache: "no-store" });
    const body = await readJson(response);
    if (read !== ui.reads) return;
    if (!response.ok) {
      loadFailed(body.error || t("server-answered", { status: response.status }));
      if (response.status === 401 && body.ended) await watchEnded();
      return;
    }
    await setState(body);
    loadFailed("");
  } catch {
    if (read === ui.reads) loadFailed(t("unreachable-retry"));
  }
}

/** The player's link ended with their match (the opponent resigned, a draw was agreed...):
 * the page becomes the match's page, its result shown and the player's controls gone, the
 * link's end still said. */
async function watchEnded() {
  if (PAGE !== "play" || !ui.state) return; // which match is not known: the words say it
  ui.loadError = ""; // said for good, not taken back by the match page's read
  MATCH = String(ui.state.match);
  PAGE = "match";
  document.body.dataset.page = PAGE;
  hideChooser();
  ui.picked = null;
  for (const id of PLAYING_ONLY) $(id).hidden = true;
  await load();
}

/** Show why the state could not be read (`text`), or take the last such words away ("").
 * Only load's own: a refused action's words stay where a read then succeeds. */
function loadFailed(text) {
  const shown = ui.loadError;
  ui.loadError = text;
  if (text) {
    showError(text);
    return;
  }
  const element = $("error") || $("said");
  if (shown && element.textContent === shown) {
    if ($("error")) clearError();
    else say("");
  }
}

/** Send a press, stamped with the turn the player saw when pressing it. Presses are sent
 * one at a time in the order made: one made while another is out (End turn clicked right
 * after a square on a slow network) waits for it, and is then done, or refused as stale if
 * that one ended the turn; never dropped without a word. */
function post(path, payload) {
  const request = JSON.stringify({ stamp: stamp(), ...payload });
  document.body.classList.add("busy");
  const sent = ui.sending.then(() => send(path, request));
  ui.sending = sent;
  sent.then(() => {
    if (ui.sending === sent) document.body.classList.remove("busy"); // none behind it
  });
  return sent;
}

async function send(path, request) {
  try {
    const response = await fetch(`/api/me/${path}`, {
      method: "POST",
      headers: { ...headers(), "Content-Type": "application/json" },
      body: request,
      cache: "no-store",
    });
    const body = await readJson(response);
    if (response.ok) {
      ui.picked = null;
      clearError();
      await setState(body);
      say(body.said || "");
      return;
    }
    if (body.stale) {
      await load();
      showError(t("now-as-it-is", { error: body.error || t("turn-ended") }));
    } else if (response.status === 429) {
      const wait = Number(response.headers.get("Retry-After"));
      showError(body.error || (wait > 0 ? tn("wait-seconds", wait) : t("too-many")));
    } else {
      showError(body.error || t("server-answered", { status: response.status }));
    }
  } catch {
    showError(t("unreachable"));
  }
}

async function readJson(response) {
  try {
    return await response.json();
  } catch {
    return {};
  }
}

function stamp() {
  return ui.state ? (ui.state.stamp ?? ui.state.turn) : 0;
}

// ---- the state -----------------------------------------------------------------------------

/** Show `state`, in its language (the page's words switch to it first). The same state
 * read again (its version a digest of all of it: the live stream begins with the state as
 * it is, which the page may have read already) leaves what the player has open as it is: a
 * chooser, a picked piece and its warnings. A new one closes the chooser; a picked piece
 * still there stays picked, its warnings asked for again (they were the old state's). */
async function setState(state) {
  if (await speak(state.language, headers())) showConnection(ui.connection, ui.connectionWhy);
  if (!ui.state || state.version !== ui.state.version) {
    ui.state = state;
    const picked = group(ui.picked);
    ui.picked = picked ? picked.key : null;
    if (picked) loadWarnings(picked);
    hideChooser();
  }
  render();
}

function groups() {
  return (ui.state && ui.state.choices) || [];
}

function group(key) {
  return groups().find((g) => g.key === key) || null;
}

function myTurn() {
  const state = ui.state;
  return PAGE === "play" && state.phase === "playing"
    && (state.players || []).some((p) => p.side === state.side && p.to_act);
}

function render() {
  const state = ui.state;
  const watching = document.body.dataset.activity === "watching";
  let title = state.title;
  if (state.side) title = t("you-play", { title, side: t(`side-${state.side}`) });
  else if (watching) title = t("watching", { title });
  $("title").textContent = title;
  renderTab(state);
  renderPlayers(state);
  renderBeforeTheGame(state);
  $("summary").textContent = state.summary || "";
  $("result").hidden = !state.result;
  $("result").textContent = state.result || "";
  renderMoves(state.moves || []);
  renderPicture();
  renderTools();
  $("record").href = `/api/m/${encodeURIComponent(state.match)}/record`;
  if (PAGE === "play") renderPlayer(state);
  tick();
}

/** The tab's title and icon: the title names the game, the match and whose turn it is (the
 * reader's own first), the icon is marked while it is the reader's, so that among a few open
 * tabs each says which match it shows and whether it waits for them. */
function renderTab(state) {
  document.title = tabTitle(state);
  const waited = myTurn() || mySetup(state);
  document.querySelector("link[rel=icon]").href = waited ? ICONS.yours : ICONS.waiting;
}

function tabTitle(state) {
  const match = t("tab-match", { game: state.title, match: state.match });
  if (myTurn()) return t("tab-your-turn", { match });
  if (mySetup(state)) return t("tab-your-setup", { match });
  const acting = (state.players || []).find((p) => p.to_act);
  return acting ? t("tab-to-play", { match, name: acting.name }) : t("tab-title", { match });
}

/** Whether the game waits for the reader's setup (both players choose at once). */
function mySetup(state) {
  return PAGE === "play" && state.phase === "setup"
    && (state.players || []).some((p) => p.side === state.side && p.setup === "choosing");
}

/** The players: who is to act, or during the setup (both choose at once) who has finished
 * and who is still choosing. */
function renderPlayers(state) {
  const items = (state.players || []).map((player) => {
    const item = document.createElement("li");
    const side = t(`side-${player.side}`);
    const named = t("player", { name: player.name, side });
    const setup = player.setup ? t(`setup-${player.setup}`) : "";
    item.textContent = setup ? t("player-setup", { player: named, setup }) : named;
    if (setup) item.classList.add(`setup-${player.setup}`);
    if (player.to_act && state.phase !== "ended") item.classList.add("to-act");
    if (player.to_act) item.setAttribute("aria-label", t("player-to-play", { name: player.name, side }));
    return item;
  });
  $("players").replaceChildren(...items);
}

/** Before the game starts there is no turn to end, no replay, no move and no record yet
 * (nor ever, in a match whose game never began: a state without a record has no `replay`,
 * its digest): their controls are hidden rather than shown disabled. */
function renderBeforeTheGame(state) {
  const before = state.phase === "setup" || !state.replay;
  const ids = ["replay", "flip", "history", "download"];
  if (PAGE === "play") ids.push("turn", "more");
  for (const id of ids) $(id).hidden = before;
}

function renderMoves(moves) {
  const items = moves.map((move) => {
    const item = document.createElement("li");
    item.value = move.turn;
    item.append(`${move.words} `);
    const code = document.createElement("code");
    code.textContent = move.notation;
    item.append(code);
    return item;
  });
  $("moves").replaceChildren(...items);
}

// ---- the picture -------------------------------------------------------------------------

function board() {
  const shown = ui.state.board;
  return ui.flipped && shown.turned ? { ...shown, ...shown.turned } : shown;
}

function turnCount() {
  return (ui.state.moves || []).reduce((most, move) => Math.max(most, move.turn), 0);
}

function pictureUrl() {
  return ui.replay === null ? board().url : replayUrl("board.png");
}

/** The address of the replay's `what` (its picture, its squares) at the turn shown. */
function replayUrl(what) {
  const state = ui.state;
  const flip = ui.flipped && state.board.turned ? 1 : 0;
  const version = encodeURIComponent(state.replay || "");
  return `/api/m/${encodeURIComponent(state.match)}/${what}?turn=${ui.replay}&flip=${flip}&v=${version}`;
}

/** The replayed board's squares for a screen reader ({width, height, cells, squares}, from
 * that turn's public view), or null if they are refused: the picture's refusal says why. */
async function replayedSquares() {
  const response = await fetch(replayUrl("squares"), { headers: headers() });
  return response.ok ? response.json() : null;
}

/** The picture, fetched (the player's own needs the token, which only a fetch can send; a
 * replay's may be refused, and the refusal is worth reading). An answer that comes once the
 * page names another picture (a newer state's, another step of the replay) is dropped: it
 * would show what is no longer so. */
async function renderPicture() {
  const url = pictureUrl();
  const image = $("picture");
  image.alt = ui.replay === null
    ? t("board-now", { summary: ui.state.summary || "" }) : t("board-after", { turn: ui.replay });
  if (url !== ui.pictureUrl) {
    ui.replayed = null;
    try {
      const response = await fetch(url, { headers: headers() });
      if (!response.ok) {
        const body = await readJson(response);
        throw new Error(body.error || t("no-picture"));
      }
      const blob = await response.blob();
      const replayed = ui.replay === null ? null : await replayedSquares();
      if (url !== pictureUrl()) return;
      ui.replayed = replayed;
      if (ui.picture) URL.revokeObjectURL(ui.picture);
      ui.picture = URL.createObjectURL(blob);
      ui.pictureUrl = url;
      image.src = ui.picture;
      await image.decode().catch(() => {}); // laid out before the cells are placed on it
    } catch (error) {
      if (url !== pictureUrl()) return;
      say(error.message);
      if (ui.replay !== null) backToNow(image);
    }
  }
  renderCells();
}

/** A replay's picture refused (a match with hidden moves replays once it has ended): the
 * page stays on the position now, which it still shows, and says so, its squares to play. */
function backToNow(image) {
  ui.replay = null;
  renderTools();
  image.alt = t("board-now", { summary: ui.state.summary || "" });
}

function renderCells() {
  const container = $("cells");
  const replayed = ui.replay === null ? null : ui.replayed;
  container.hidden = ui.replay !== null && !replayed;
  if (container.hidden) return;
  if (replayed || PAGE !== "play") {
    // a board to read: a finished turn's (its own squares, nothing played there) or the match page's
    const shown = replayed || board();
    const squares = replayed ? replayed.squares : ui.state.squares;
    drawCells(container, shown, (square) => ({ label: standing(square, squares).join(": "), classes: [] }), null);
    return;
  }
  drawCells(container, board(), describe, press);
  followPick();
}

/** A square's name and what stands on it, as the state's own view says (nothing more for
 * an empty square): what a screen reader hears of a square on every page. A place off the
 * board (a hand, named by its drop's notation: "S@", "S@O") is its words alone ("Swallows in hand:
 * ann 2"): its name means nothing to a listener. */
function standing(square, squares = ui.state.squares) {
  const here = (squares || {})[square];
  if (!here) return [square];
  return square.includes("@") ? [here] : [square, here];
}

/** What a square is to the player now: what stands on it, a piece they may pick, a spot of the picked piece's
 * actions (by what the action does there), a square a setup question may be answered with. */
function describe(square) {
  const label = standing(square);
  const classes = [];
  const here = groups().filter((g) => g.origin === square);
  if (here.length) {
    classes.push("origin");
    label.push(here.map((g) => g.label).join(", "));
  }
  const picked = group(ui.picked);
  if (picked && picked.origin === square) {
    classes.push("picked");
    label.push(t("picked"));
  }
  const actions = spotted(square);
  if (actions.length) {
    const does = role(picked, actions[0], square);
    classes.push("spot", `role-${does}`);
    if (here.length || does === "hit") classes.push("busy"); // a ring: the piece stays visible
    if (actions.some((a) => a.warning)) classes.push("warn");
    label.push(actions.map((a) => (a.warning ? t("with-warning", { action: a.label, warning: a.warning }) : a.label)).join("; "));
  }
  if (setupField(square)) {
    classes.push("spot", "role-setup");
    label.push(t("answer-field", { field: setupField(square).name }));
  }
  const chosen = setupChosen(square);
  if (chosen) label.push(t("starts-here", { piece: chosen.name.charAt(0).toUpperCase() + chosen.name.slice(1) }));
  return { label: label.join(": "), classes };
}

function spotted(square) {
  const picked = group(ui.picked);
  return picked ? picked.actions.filter((a) => a.spot === square) : [];
}

/** What an action does on its spot: a drop (from a hand), else the role it touches it with. */
function role(picked, action, square) {
  if (picked && picked.origin.endsWith("@")) return "drop";
  const touch = (action.touches || []).find((t) => t.square === square);
  return touch && ["to", "hit", "build", "from"].includes(touch.role) ? touch.role : "to";
}

function press(square) {
  ui.pressed = square;
  clearError();
  const field = setupField(square);
  if (field) {
    post("setup", { answers: { [field.name]: square } });
    return;
  }
  if (!myTurn()) {
    if (groups().length === 0 && ui.state.phase === "playing") say(t("not-your-turn"));
    return;
  }
  const actions = spotted(square);
  if (actions.length === 1 && !actions[0].warning && !actions[0].final) {
    act(actions[0]);
  } else if (actions.length) {
    offer(t("on-square", { square }), actions.map(actionOption));
  } else {
    const here = groups().filter((g) => g.origin === square);
    if (here.length === 1) pick(here[0].key === ui.picked ? null : here[0].key);
    else if (here.length > 1) offer(t("on-square", { square }), here.map(groupOption));
    else pick(null);
  }
}

function pick(key) {
  ui.picked = key;
  hideChooser();
  renderCells();
  renderDecisions();
  const picked = group(key);
  if (picked) {
    loadWarnings(picked);
    say(`${picked.label}: ${picked.description || ""}`.replace(/: $/, ""));
    if (!picked.origin || !picked.actions.some((a) => a.spot in board().cells)) {
      offer(picked.label, picked.actions.map(actionOption));
    }
  }
}

/** The rules' warnings of a picked piece's actions (R30: where a command piece could not end
 * the turn), asked for one piece at a time (each can cost the server a search), then marked. */
async function loadWarnings(picked) {
  if (picked.warned) return;
  try {
    const url = `/api/me/warnings?group=${encodeURIComponent(picked.key)}`;
    const response = await fetch(url, { headers: headers(), cache: "no-store" });
    if (!response.ok) return;
    const found = (await readJson(response)).warnings || {};
    for (const action of picked.actions) action.warning = found[action.notation] || action.warning;
    picked.warned = true;
    if (group(ui.picked) === picked) renderCells();
  } catch {
    // Without its warnings the piece is still played; the rules refuse at the turn's end.
  }
}

function act(action) {
  post("act", { notation: action.notation });
}

/** On the zoomed board, keep the picked piece (else the square last pressed) in view. */
function followPick() {
  const picked = group(ui.picked);
  const square = picked && picked.origin ? picked.origin : ui.pressed;
  if (!square || !$("frame").classList.contains("zoomed")) return;
  const cell = $("cells").querySelector(`[data-square="${CSS.escape(square)}"]`);
  if (cell) cell.scrollIntoView({ block: "center", inline: "center" });
}

// ---- choosers ------------------------------------------------------------------------------

/** An action as a chooser's option; one never taken back (a search, R10) says so there, as
 * a square's press opens the chooser for it rather than staging it at once. */
function actionOption(action) {
  const warnings = [action.warning, action.final ? t("final") : ""].filter(Boolean);
  return {
    text: (action.path && action.path.length ? action.path.join(" ") : action.label),
    warning: warnings.join(" · "),
    choose: () => act(action),
  };
}

function groupOption(g) {
  return { text: g.label, why: g.description, choose: () => pick(g.key) };
}

// ---- the player's controls -------------------------------------------------------------------

function renderPlayer(state) {
  const acting = myTurn();
  const staged = state.staged || [];
  document.body.dataset.staged = String(staged.length); // for tests and styles alike
  // what may be done now alone (TORA's free take of a found Assassin, R43) follows the prompt
  const prompt = [state.prompt || t("your-turn"), ...(state.hints || [])].join(" ");
  $("prompt").textContent = acting ? prompt : "";
  $("legend").hidden = !acting;
  // Undo only while it takes something back: nothing staged, or a search holding it
  // (R10), would leave it a dead button
  $("undo").disabled = !acting || !state.undoable;
  $("end").disabled = !acting;
  const playing = state.phase === "playing";
  $("resign").disabled = !playing;
  renderProposable(state);
  // A pause needs both players and stops the clock; either player resumes it at once.
  $("resume").disabled = !playing || !state.paused;
  $("public").href = `/m/${encodeURIComponent(state.match)}`;
  renderDecisions();
  $("proposals").replaceChildren(
    ...proposalItems(state.proposals || [], (kind, yes) => post("answer", { kind, yes })),
  );
  renderSetup(state);
  // a pause stops the clocks, not the thinking: the waiting player may plan then, as the
  // Discord panel lets them (the plan is played once the opponent's turn ends, after it)
  const waiting = playing && !acting && !state.result;
  renderPlan(state, waiting);
}

/** The proposals the player may make now (the state's `proposable`, as the server takes
 * them): a draw or a pause they may not make now is disabled; a reset, where their game
 * or the moment has none (ToriShogi, Torii, TORA outside a series or above one action:
 * R28), is hidden, as it would only be refused, and so is the takeback but in a casual
 * match, between the end of the player's turn and the end of the opponent's. */
function renderProposable(state) {
  const proposable = state.proposable || [];
  for (const kind of ["draw", "pause"]) $(kind).disabled = !proposable.includes(kind);
  for (const kind of ["reset", "rewind"]) $(kind).hidden = !proposable.includes(kind);
}

/** Groups no square stands for (a decision such as the Monkey's): buttons below the board. */
function renderDecisions() {
  const decisions = groups().filter((g) => !g.origin);
  $("decisions").replaceChildren(...decisions.map((g) => {
    const button = document.createElement("button");
    button.type = "button";
    button.append(g.label);
    if (g.description) button.append(span("why", g.description));
    button.setAttribute("aria-pressed", String(g.key === ui.picked));
    button.addEventListener("click", () => pick(g.key));
    return button;
  }));
}

/** The setup questions while the setup lasts: a finished setup may still change until the
 * game starts, so its free squares still take a click (R41). */
function setupFields() {
  const setup = ui.state && ui.state.phase === "setup" && ui.state.setup;
  return setup ? setup.fields || [] : [];
}

/** The setup question a square answers (TORA's Assassin square), if any. */
function setupField(square) {
  return setupFields().find((f) => f.free && !f.waiting && (f.options || []).includes(square)) || null;
}

/** The setup question answered with this square (the Assassin's start), during the setup. */
function setupChosen(square) {
  const setup = ui.state && ui.state.phase === "setup" && ui.state.setup;
  return setup ? (setup.fields || []).find((f) => f.chosen === square) || null : null;
}

function renderSetup(state) {
  const setup = state.setup;
  $("setup").hidden = !setup || state.phase !== "setup";
  if ($("setup").hidden) return;
  $("setup-text").textContent = setup.done ? t("setup-waiting") : setup.text || "";
  const choose = (name, option) => post("setup", { answers: { [name]: option } });
  $("setup-fields").replaceChildren(...(setup.fields || []).map((f) => setupFieldset(f, choose)));
}

// ---- replay, flip, zoom, clock, messages ---------------------------------------------------------

function renderTools() {
  const turns = turnCount();
  if (ui.replay !== null && ui.replay > turns) ui.replay = null;
  $("step").textContent = ui.replay === null ? tn("now-after", turns) : t("turn-of", { turn: ui.replay, turns });
  $("first").disabled = turns === 0 || ui.replay === 0;
  $("back").disabled = turns === 0 || ui.replay === 0;
  $("forward").disabled = ui.replay === null;
  $("live").disabled = ui.replay === null;
  const turnable = Boolean(ui.state.board.turned);
  $("flip").disabled = !turnable;
  $("flip").title = turnable ? t("flip-title") : t("flip-never");
}

function step(to) {
  const turns = turnCount();
  ui.replay = to === null || to >= turns ? null : Math.max(0, to);
  hideChooser();
  renderTools();
  renderPicture();
}

function tick() {
  const state = ui.state;
  const clock = $("clock");
  if (state && state.paused && state.phase === "playing") {
    clock.hidden = false;
    clock.textContent = t("paused");
    return;
  }
  if (!state || !state.deadline || state.phase === "ended") {
    clock.hidden = true;
    return;
  }
  const when = new Date(state.deadline * 1000);
  const left = Math.max(0, Math.round(state.deadline - Date.now() / 1000));
  const h = Math.floor(left / 3600);
  const m = Math.floor((left % 3600) / 60);
  const s = left % 60;
  const countdown = t("countdown", { h, m: String(m).padStart(2, "0"), s: String(s).padStart(2, "0") });
  clock.hidden = false;
  clock.textContent = t("deadline", { when: when.toLocaleString(dateLocale()), countdown });
}

/** The live stream's status (`key`: "connecting", "live", "reconnecting"...), in words:
 * `why` where the server said them (why it refused the stream, and what to do). */
function showConnection(key, why = "") {
  ui.connection = key;
  ui.connectionWhy = why;
  $("connection").textContent = why ? `${t(`status-${key}`)} ${why}` : t(`status-${key}`);
}

function say(text) {
  $("said").textContent = text;
}

function showError(text) {
  const element = $("error");
  if (!element) {
    say(text);
    return;
  }
  element.textContent = text;
  element.hidden = false;
}

function clearError() {
  const element = $("error");
  if (element) element.hidden = true;
}

function wire() {
  $("first").addEventListener("click", () => step(0));
  $("back").addEventListener("click", () => step((ui.replay ?? turnCount()) - 1));
  $("forward").addEventListener("click", () => step(ui.replay + 1));
  $("live").addEventListener("click", () => step(null));
  $("flip").addEventListener("click", () => {
    ui.flipped = !ui.flipped;
    $("flip").setAttribute("aria-pressed", String(ui.flipped));
    renderPicture();
  });
  $("zoom").addEventListener("click", () => {
    const zoomed = $("frame").classList.toggle("zoomed");
    $("zoom").setAttribute("aria-pressed", String(zoomed));
    followPick();
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && ui.state) {
      hideChooser();
      if (PAGE === "play") pick(null);
    }
  });
  if (PAGE !== "play") return;
  $("chooser-cancel").addEventListener("click", hideChooser);
  wirePlan(headers, stamp);
  $("undo").addEventListener("click", () => post("undo", {}));
  $("end").addEventListener("click", () => post("end", {}));
  $("draw").addEventListener("click", () => post("draw", {}));
  $("pause").addEventListener("click", () => post("pause", {}));
  $("resume").addEventListener("click", () => post("resume", {}));
  $("reset").addEventListener("click", () => post("reset", {}));
  $("rewind").addEventListener("click", () => post("rewind", {}));
  $("resign").addEventListener("click", () => {
    $("confirm").hidden = false;
    $("confirm-no").focus();
  });
  $("confirm-no").addEventListener("click", () => {
    $("confirm").hidden = true;
  });
  $("confirm-yes").addEventListener("click", () => {
    $("confirm").hidden = true;
    post("resign", {});
  });
}

async function start() {
  label();
  showConnection(ui.connection);
  if (PAGE === "activity" && !(await joinActivity())) return;
  wire();
  if (PAGE === "play" && !TOKEN) {
    showError(t("needs-link"));
    return;
  }
  load();
  setInterval(tick, 1000);
  let connected = false;
  const events = PAGE === "play" ? "/api/me/events" : `/api/m/${encodeURIComponent(matchId())}/events`;
  follow(
    events,
    PAGE === "play" || PASS ? headers : null, // headers need a fetch, not an EventSource
    (data) => {
      if (PAGE === "play" || !ui.state || data.version !== ui.state.version) load();
    },
    (status, why) => {
      showConnection(status, why);
      if (status === "live" && connected) load(); // what changed while the stream was down
      if (status === "live") connected = true;
    },
  );
}

/** Inside Discord: sign in (activity.js, loaded only here: it brings the SDK), then be the
 * player page of the user's seat, or the match page for anyone else. The match page's link
 * is hidden: Discord's frame shows this page only. */
async function joinActivity() {
  showConnection("signing-in");
  let seat;
  try {
    let signIn;
    try {
      ({ signIn } = await import("./activity.js"));
    } catch {
      throw new Error(t("sign-in-failed")); // not the browser's words for a failed import
    }
    seat = await signIn(document.body.dataset.client);
  } catch (error) {
    showError(error.message || t("sign-in-failed"));
    showConnection("signed-out");
    return false;
  }
  MATCH = seat.match;
  PASS = seat.pass;
  setInterval(renewPass, RENEW_MS);
  TOKEN = seat.token;
  PAGE = TOKEN ? "play" : "match";
  document.body.dataset.page = PAGE;
  document.body.dataset.activity = seat.side || "watching";
  $("public").hidden = true;
  if (PAGE === "match") for (const id of PLAYING_ONLY) $(id).hidden = true;
  return true;
}

/** A fresh pass for the one the page has, while it holds (every request after sends the new
 * one: the live stream's next connection too). Should this fail, the next try may not. */
async function renewPass() {
  try {
    const response = await fetch("/api/activity/pass", { method: "POST", headers: headers(), cache: "no-store" });
    const body = await readJson(response);
    if (response.ok && body.pass) PASS = body.pass;
  } catch {
    // tried again in RENEW_MS
  }
}

start();
