// The player page's small forms, built from the state: the chooser that names the actions
// sharing a square (or the pieces sharing one), the proposals with their answers, and the
// setup questions with what each option means.

import { t } from "./words.js";

const $ = (id) => document.getElementById(id);
const PROPOSALS = ["draw", "pause", "reset", "rewind"]; // the kinds with words of their own

// What the chooser gives the focus back to when it closes: the control it was opened from.
let opener = null;

/** Show the chooser: `options` are {text, why, warning, choose}. When it closes (an option
 * chosen, Cancel, Escape), the focus goes back to the control it was opened from (the
 * square pressed: the same square's cell where the board was drawn again meanwhile), not to
 * nothing (the page's body, where the next Tab would start from the top). */
export function offer(title, options) {
  const from = document.activeElement;
  if (!$("chooser").contains(from)) opener = from;
  $("chooser-title").textContent = title;
  const buttons = options.map((option) => {
    const button = document.createElement("button");
    button.type = "button";
    button.append(option.text);
    if (option.why) button.append(span("why", option.why));
    if (option.warning) button.append(span("warning", `⚠ ${option.warning}`));
    button.addEventListener("click", () => {
      hideChooser();
      option.choose();
    });
    return button;
  });
  $("chooser-options").replaceChildren(...buttons);
  $("chooser").hidden = false;
  if (buttons[0]) buttons[0].focus();
}

export function hideChooser() {
  const chooser = $("chooser");
  if (!chooser || chooser.hidden) return;
  const had = chooser.contains(document.activeElement);
  chooser.hidden = true;
  const from = opener;
  opener = null;
  if (had && from) openerNow(from)?.focus({ preventScroll: true });
}

/** `from`, or where the board was drawn again since, the cell of the same square. */
function openerNow(from) {
  if (from.isConnected) return from;
  const square = from.dataset && from.dataset.square;
  return square ? document.querySelector(`.cell[data-square="${CSS.escape(square)}"]`) : null;
}

export function span(kind, text) {
  const element = document.createElement("span");
  element.className = kind;
  element.textContent = text;
  return element;
}

/** The proposals open: the player's own waiting with Take back, the opponent's with Accept
 * and Decline (`answer(kind, yes)`: "no" to one's own proposal takes it back). */
export function proposalItems(proposals, answer) {
  return proposals.map((proposal) => {
    const item = document.createElement("p");
    const known = PROPOSALS.includes(proposal.kind) ? proposal.kind : "other";
    const words = proposal.mine ? `proposed-${known}` : `proposes-${known}`;
    item.append(`${t(words, { kind: proposal.kind })} `);
    const answers = proposal.mine
      ? [[t("take-back"), false]]
      : [
          [t("accept"), true],
          [t("decline"), false],
        ];
    for (const [text, yes] of answers) {
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = text;
      button.addEventListener("click", () => answer(proposal.kind, yes));
      item.append(button, " ");
    }
    return item;
  });
}

/** One setup question: its prompt, and a button per option saying what it means
 * (`choose(name, option)` answers it). */
export function setupFieldset(field, choose) {
  const set = document.createElement("fieldset");
  set.dataset.name = field.name;
  const legend = document.createElement("legend");
  const named = field.name.charAt(0).toUpperCase() + field.name.slice(1);
  const words = { field: named, prompt: field.prompt, choice: field.chosen };
  legend.textContent = t(field.chosen ? "field-chosen" : "field", words);
  set.append(legend);
  if (field.waiting) {
    set.append(span("why", field.waiting));
    return set;
  }
  if (field.free) set.append(span("why", t("click-square")));
  const options = document.createElement("div");
  options.className = "options";
  (field.options || []).forEach((option, i) => {
    const button = document.createElement("button");
    button.type = "button";
    button.append(option);
    const why = (field.descriptions || [])[i];
    if (why) button.append(span("why", why));
    const chosen = option === field.chosen;
    button.setAttribute("aria-pressed", String(chosen));
    if (chosen) button.classList.add("chosen");
    button.addEventListener("click", () => choose(field.name, option));
    options.append(button);
  });
  set.append(options);
  return set;
}
