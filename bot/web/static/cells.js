// The clickable squares over the board's picture: one button per square (and per hand piece),
// placed in % of the picture so they scale with it. The arrow keys move between them (the one
// nearest in that direction), Enter or Space presses one; only one is in the tab order at a time.

const ARROWS = { ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] };

/** Draw the cells of `board` ({width, height, cells: {name: [x, y, size]}}) into `container`.
 * `describe(name)` gives {label, classes} for a square; `onPress(name)` is called when one is
 * pressed. Without `onPress` (a board to read, not to play on) each square is a labelled
 * image, not a button that would do nothing. The square that had the focus keeps it. */
export function drawCells(container, board, describe, onPress) {
  const focused = document.activeElement && container.contains(document.activeElement)
    ? document.activeElement.dataset.square : null;
  const buttons = [];
  for (const [name, [x, y, size]] of Object.entries(board.cells)) {
    const button = document.createElement(onPress ? "button" : "div");
    if (onPress) button.type = "button";
    else button.setAttribute("role", "img");
    button.className = "cell";
    button.dataset.square = name;
    button.dataset.cx = String(x + size / 2);
    button.dataset.cy = String(y + size / 2);
    button.style.left = percent(x, board.width);
    button.style.top = percent(y, board.height);
    button.style.width = percent(size, board.width);
    button.style.height = percent(size, board.height);
    const { label, classes } = describe(name);
    button.setAttribute("aria-label", label);
    button.title = label;
    button.classList.add(...classes);
    button.tabIndex = -1;
    if (onPress) button.addEventListener("click", () => onPress(name));
    buttons.push(button);
  }
  container.replaceChildren(...buttons);
  container.onkeydown = (event) => moveFocus(event, buttons);
  const start = buttons.find((b) => b.dataset.square === focused)
    || buttons.find((b) => b.classList.contains("picked"))
    || buttons.find((b) => b.classList.contains("origin"))
    || buttons[0];
  if (start) {
    start.tabIndex = 0;
    if (focused) start.focus({ preventScroll: true });
  }
}

function percent(part, whole) {
  return `${(100 * part) / whole}%`;
}

function moveFocus(event, buttons) {
  const step = ARROWS[event.key];
  const from = event.target.closest(".cell");
  if (!step || !from) return;
  event.preventDefault();
  const next = nearest(from, buttons, step);
  if (!next) return;
  from.tabIndex = -1;
  next.tabIndex = 0;
  next.focus();
  next.scrollIntoView({ block: "nearest", inline: "nearest" });
}

/** The cell nearest to `from` in the direction `step`, preferring those in line with it. */
function nearest(from, buttons, [dx, dy]) {
  const a = centre(from);
  let best = null;
  let bestScore = Infinity;
  for (const button of buttons) {
    if (button === from) continue;
    const b = centre(button);
    const along = (b.x - a.x) * dx + (b.y - a.y) * dy;
    if (along <= 0.5) continue;
    const across = Math.abs((b.x - a.x) * dy) + Math.abs((b.y - a.y) * dx);
    const score = along + 3 * across;
    if (score < bestScore) {
      bestScore = score;
      best = button;
    }
  }
  return best;
}

function centre(button) {
  return { x: Number(button.dataset.cx), y: Number(button.dataset.cy) };
}
