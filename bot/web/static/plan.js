// The plan mode of the player's page: while the opponent's turn runs, the player picks the turn
// they expect of them and their reply, with the Play panel's menus (a piece, then an action),
// and saves it as a plan, played at once if that turn comes. The server keeps the draft
// (POST /api/me/plan answers it as it is after each step), so the page holds nothing of it.

import { t } from "./words.js";

const $ = (id) => document.getElementById(id);
let link = null; // {headers, stamp}: how the page's requests are made
let shownFor = null; // the turn the draft shown is of

/** Wire the plan mode's controls; `headers()` and `stamp()` are the page's. */
export function wirePlan(headers, stamp) {
  link = { headers, stamp };
  $("plan").addEventListener("toggle", () => {
    if ($("plan").open) send({});
  });
  $("plan-group").addEventListener("change", (event) => {
    if (event.target.value) send({ group: event.target.value });
  });
  // An action is added by Add (or Enter on the list), not as the list's value changes: the
  // arrow keys change it at each step through the list, and a player reads it first.
  $("plan-action").addEventListener("change", (event) => {
    $("plan-add").disabled = !event.target.value;
  });
  $("plan-action").addEventListener("keydown", (event) => {
    if (event.key !== "Enter") return;
    event.preventDefault();
    addAction();
  });
  $("plan-add").addEventListener("click", addAction);
}

/** Add the action chosen in the list to the plan; the focus stays in the plan's menus (the
 * action list, else the piece list where the next step is a new piece). */
async function addAction() {
  const pick = $("plan-action").value;
  if (!pick) return;
  const from = document.activeElement;
  await send({ pick });
  if (from && !from.hidden && !from.disabled) from.focus();
  else if ($("plan-action").hidden) $("plan-group").focus();
  else $("plan-action").focus();
}

/** Show the plan mode while the opponent is to act (a new turn: the draft shown is stale),
 * unless the state says why no plan can be made then (`unplannable`: the opponent's decision
 * in the player's turn, TI15, or an AI opponent): that is shown in its place. */
export function renderPlan(state, waiting) {
  const why = waiting ? state.unplannable || "" : "";
  $("plan-why").textContent = why;
  $("plan-why").hidden = !why;
  const open = waiting && !why;
  $("plan").hidden = !open;
  if (!open) {
    $("plan").open = false;
    shownFor = null;
    return;
  }
  if ($("plan").open && shownFor !== state.turn) send({});
}

async function send(payload) {
  try {
    const response = await fetch("/api/me/plan", {
      method: "POST",
      headers: { ...link.headers(), "Content-Type": "application/json" },
      body: JSON.stringify({ stamp: link.stamp(), ...payload }),
      cache: "no-store",
    });
    let body = {};
    try {
      body = await response.json();
    } catch {
      body = {};
    }
    if (!response.ok) {
      planError(body.error || t("server-answered", { status: response.status }));
      return;
    }
    planError("");
    draw(body);
  } catch {
    planError(t("unreachable"));
  }
}

function planError(text) {
  $("plan-error").textContent = text;
  $("plan-error").hidden = !text;
}

function draw(plan) {
  shownFor = plan.stamp;
  $("plan-title").textContent = `${plan.title} · ${plan.to_act}`;
  $("plan-news").textContent = plan.news;
  $("plan-theirs").textContent = plan.theirs.length
    ? t("if-they-play", { opponent: plan.opponent, actions: plan.theirs.join("; ") }) : "";
  $("plan-mine").textContent = plan.replying ? t("you-reply", { actions: plan.mine.join("; ") || "…" }) : "";
  $("plan-next").textContent = plan.next;
  fill($("plan-group"), t("choose-piece"), plan.groups.map((g) => [g.key, g.label]), plan.group);
  $("plan-action").hidden = !plan.choices.length;
  fill($("plan-action"), t("choose-action"), plan.choices.map((c) => [c.notation, c.label]), "");
  $("plan-add").hidden = !plan.choices.length;
  $("plan-add").disabled = true; // until an action is chosen in the list
  $("plan-steps").replaceChildren(...plan.steps.map((step) => {
    const button = document.createElement("button");
    button.type = "button";
    button.id = `plan-${step}`;
    button.textContent = t(`step-${step}`);
    if (step === "save") button.className = "primary";
    button.addEventListener("click", () => send({ step }));
    return button;
  }));
  $("plan-list").replaceChildren(...plan.plans.map((line, index) => {
    const item = document.createElement("li");
    const words = document.createElement("span");
    words.textContent = line;
    const cancel = document.createElement("button");
    cancel.type = "button";
    cancel.textContent = t("cancel-plan");
    cancel.addEventListener("click", () => send({ cancel: plan.cancels[index] })); // found whatever its number now
    item.append(words, " ", cancel);
    return item;
  }));
  $("plan-picture").hidden = !plan.picture;
  if (plan.picture) $("plan-picture").src = plan.picture;
}

function fill(select, placeholder, options, chosen) {
  const first = new Option(placeholder, "");
  first.disabled = true;
  const items = options.map(([value, label]) => new Option(label, value, false, value === chosen));
  select.replaceChildren(first, ...items);
  if (!chosen) select.value = "";
}
