// Drawing the board: cells from the game's board view, in the look its plugin declares,
// with the move values of an analysis, the last move, the winning line, the colour key
// and the coordinates; moves that are not cells as buttons; the status line.

import {
  cellLabel,
  columnLabel,
  drawsDiscs,
  hasColourKey,
  lastMoveCells,
  lookFor,
  markSvg,
  playerOf,
  rowLabel,
  winLength,
  winningLines,
} from "./looks.js";
import { drawEdges } from "./hexes.js";
import { cellClicked, columnClicked, playMove } from "./play.js";
import { renderRecord } from "./record.js";
import { isComputer, isHumanTurn } from "./setup.js";
import { $, current, gameEntry, page, playerNames, SEARCHER_NAMES, shortValue, svgElement } from "./state.js";

function shapeOf(state) {
  return `${state.game}:${state.board.rows}x${state.board.cols}`;
}

function buildBoard(state, look) {
  const board = state.board;
  const element = $("board");
  element.replaceChildren();
  const area = $("board-area");
  area.style.setProperty("--cols", board.cols);
  area.style.setProperty("--rows", board.rows);
  area.dataset.look = look.kind;
  element.dataset.look = look.kind;
  element.dataset.checkered = String(look.checkered);
  board.cells.forEach((cell, index) => {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "cell";
    button.dataset.index = index;
    const row = Math.floor(index / board.cols), col = index % board.cols;
    if (look.checkered && (row + col) % 2 === 1) button.classList.add("dark");
    button.style.setProperty("--row", row); // a "hexes" look shifts each row (board.css)
    button.addEventListener("click", () => cellClicked(index));
    button.addEventListener("keydown", (event) => moveFocus(event, index));
    element.append(button);
  });
  element.dataset.shape = shapeOf(state);
  buildColumns(board, look);
  buildCoordinates(board, look);
  buildKey(state, look);
  page.drawn = null;
}

function buildColumns(board, look) {
  const columns = $("columns");
  columns.replaceChildren();
  columns.hidden = look.kind !== "drop";
  if (look.kind !== "drop") return;
  for (let col = 0; col < board.cols; col += 1) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "column";
    button.dataset.col = col;
    const number = document.createElement("span");
    number.className = "number";
    number.textContent = String(col + 1);
    const value = document.createElement("span");
    value.className = "value";
    button.append(number, value);
    button.addEventListener("click", () => columnClicked(col));
    button.addEventListener("keydown", (event) => moveFocus(event, col));
    columns.append(button);
  }
}

// Letters under the columns and numbers beside the rows, for a look with coordinates.
function buildCoordinates(board, look) {
  const files = $("board-files"), ranks = $("board-ranks");
  files.replaceChildren();
  ranks.replaceChildren();
  files.hidden = ranks.hidden = !look.coordinates;
  if (!look.coordinates) return;
  for (let col = 0; col < board.cols; col += 1) {
    const label = document.createElement("span");
    label.textContent = columnLabel(col);
    files.append(label);
  }
  for (let row = 0; row < board.rows; row += 1) {
    const label = document.createElement("span");
    label.textContent = rowLabel(look, board, row);
    ranks.append(label);
  }
}

// Which colour is whose, for looks whose players are told apart by colour alone.
function buildKey(state, look) {
  const key = $("board-key");
  key.replaceChildren();
  key.hidden = !hasColourKey(look);
  if (key.hidden) return;
  key.dataset.look = look.kind;
  key.dataset.checkered = String(look.checkered);
  const names = playerNames(state);
  names.forEach((name, index) => {
    const entry = document.createElement("span");
    entry.className = "key-entry";
    const swatch = document.createElement("span");
    swatch.className = "key-swatch";
    swatch.dataset.player = String(index);
    const disc = document.createElement("span");
    disc.className = "disc";
    swatch.append(disc);
    const words = document.createElement("span");
    words.textContent = `${name}${index === 0 ? " (moves first)" : ""}`;
    entry.append(swatch, words);
    key.append(entry);
  });
}

// Arrow keys move between cells: left and right in reading order (wrapping round the
// board), up and down by columns; Home and End go to the first and last cell. In a
// game of columns, the digit keys play a column.
function moveFocus(event, index) {
  const state = page.preview || current();
  const { rows, cols } = state.board;
  if (lookFor(state).kind === "drop" && /^[1-9]$/.test(event.key)) {
    event.preventDefault();
    if (Number(event.key) <= cols) columnClicked(Number(event.key) - 1);
    return;
  }
  const count = rows * cols;
  const targets = {
    ArrowLeft: (index + count - 1) % count,
    ArrowRight: (index + 1) % count,
    ArrowUp: index - cols,
    ArrowDown: index + cols,
    Home: 0,
    End: count - 1,
  };
  if (!(event.key in targets)) return;
  const target = targets[event.key];
  event.preventDefault();
  if (target >= 0 && target < count) $("board").children[target].focus();
}

// Whether the values of an analysis are the mover's own (a game of utilities, or visits).
function valuesAreTheMovers(state, data) {
  return Boolean(data.visits) || gameEntry(state).rules.utilities;
}

// The move values to show on the board: {move: {text, title, best, rank}}, or null;
// a higher rank is better for the player to move.
function overlayFor(state) {
  const shown = page.analysis;
  if (shown === null || shown.position !== state.position || page.preview !== null) return null;
  const data = shown.data;
  const best = new Set(data.best_moves);
  const overlay = {};
  if (data.visits) {
    for (const entry of data.visits) {
      overlay[entry.move] = {
        text: `${entry.visits}`,
        title: `${entry.visits} visits, mean result ${Number(entry.mean).toFixed(2)}`,
        best: entry.move === data.move,
        rank: entry.visits,
      };
    }
    return overlay;
  }
  const second = !valuesAreTheMovers(state, data) && playerNames(state).indexOf(data.to_move) === 1;
  for (const entry of data.moves) {
    const text = shortValue(entry.value);
    const title = text === String(entry.value) ? `value ${entry.value}` : `value ${text} (${entry.value})`;
    const number = typeof entry.value === "string" ? Number(shortValue(entry.value)) : Number(entry.value);
    overlay[entry.move] = { text, title, best: best.has(entry.move), rank: second ? -number : number };
  }
  return overlay;
}

// The best of the moves a piece can make (for a game of two clicks), or undefined.
function bestOfPiece(paths, index, overlay) {
  let found;
  for (const path of paths) {
    const entry = path.cells[0] === index ? overlay[path.move] : undefined;
    if (entry && (found === undefined || entry.rank > found.rank || (entry.best && !found.best))) found = entry;
  }
  return found;
}

export function render() {
  const state = page.preview || current();
  const board = state.board;
  const look = lookFor(state);
  $("board-area").hidden = board === null;
  $("board-key").hidden = board === null || !hasColourKey(look);
  $("text-board").hidden = board !== null;
  $("text-board").textContent = state.text;
  const overlay = overlayFor(state);
  renderMoveList(state, board === null, overlay);
  renderExtraMoves(state, overlay);
  if (board !== null) renderBoard(state, look, overlay);
  $("board-caption").textContent = board ? board.caption || "" : "";
  $("board-caption").hidden = !board || !board.caption;
  $("board").setAttribute("aria-busy", page.busy ? "true" : "false");
  $("status").textContent = statusText();
  const game = current();
  $("undo").disabled = page.record.index === 0;
  $("hint").disabled = game.is_over || page.busy;
  $("engine-move").disabled = game.is_over || page.busy;
  renderLegend(state, overlay);
  renderPreviewBanner();
  renderRecord();
}

function renderBoard(state, look, overlay) {
  const board = state.board;
  if ($("board").dataset.shape !== shapeOf(state)) buildBoard(state, look);
  const names = playerNames(state);
  const cells = $("board").children;
  const playable = isHumanTurn();
  const previous = page.preview ? current().board : page.record.states[page.record.index - 1]?.board;
  const last = new Set(lastMoveCells(previous, board));
  const winning = new Set();
  const length = winLength(look, state);
  const lines = state.winner && length ? winningLines(board, state.winner, length) : [];
  for (const line of lines) line.forEach((index) => winning.add(index));
  const drawn = page.drawn;
  const shape = `${board.rows}x${board.cols}`;
  const newlyFilled = drawn && drawn.shape === shape
    ? board.cells.map((cell, index) => drawn.symbols[index] === "" && cell.symbol !== "").reduce(
      (list, isNew, index) => (isNew ? [...list, index] : list), [])
    : [];
  // moves of two clicks: the pieces that can move, and where the picked one can go
  const paths = board.paths || [];
  const playablePaths = playable ? paths : [];
  const starts = new Set(playablePaths.map((path) => path.cells[0]));
  const targets = new Map();
  for (const path of playablePaths) {
    const end = path.cells[path.cells.length - 1];
    if (path.cells[0] === page.selected) targets.set(end, [...(targets.get(end) || []), path.move]);
  }
  board.cells.forEach((cell, index) => {
    const button = cells[index];
    const row = Math.floor(index / board.cols) + 1;
    const player = playerOf(look, names, cell.symbol);
    const canPlay = (cell.move !== null || starts.has(index) || targets.has(index)) && playable;
    button.replaceChildren();
    const symbol = document.createElement("span");
    symbol.className = "symbol";
    symbol.textContent = cell.symbol;
    if (look.kind === "marks" && player >= 0) button.append(markSvg(player));
    else if (drawsDiscs(look) && cell.symbol !== "") {
      const disc = document.createElement("span");
      disc.className = "disc";
      disc.classList.toggle("crowned", look.crowned.includes(cell.symbol));
      disc.setAttribute("aria-hidden", "true");
      button.append(disc);
    } else if (look.kind === "pieces" && cell.symbol !== "") {
      const glyph = document.createElement("span");
      glyph.className = "glyph";
      glyph.setAttribute("aria-hidden", "true");
      glyph.textContent = look.glyphs[cell.symbol] || cell.symbol;
      button.append(glyph);
    }
    symbol.classList.toggle("visually-hidden", look.kind !== "grid");
    button.style.setProperty("--chars", String(Math.max(1, cell.symbol.length)));
    button.append(symbol);
    let label = cellLabel(look, board, index);
    const pathMove = targets.has(index) && targets.get(index).length === 1 ? targets.get(index)[0] : null;
    const cellMove = cell.move !== null ? cell.move : pathMove;
    let entry = overlay && look.kind !== "drop" && cellMove !== null ? overlay[cellMove] : undefined;
    // before a piece is picked, each piece that can move shows the best of its moves
    const isPiece = overlay && entry === undefined && page.selected === null && !page.preview;
    if (isPiece) entry = bestOfPiece(paths, index, overlay);
    button.classList.toggle("best", Boolean(entry && entry.best));
    if (entry) {
      const value = document.createElement("span");
      value.className = "value";
      value.textContent = entry.text;
      value.title = isPiece ? `best move of this piece: ${entry.title}` : entry.title;
      button.append(value);
      label += isPiece ? `, its best move: ${entry.title}` : `, ${entry.title}`;
      if (entry.best) label += ", a best move";
    }
    if (starts.has(index)) label += index === page.selected ? ", picked: now choose where it goes" : ", can move";
    if (targets.has(index)) label += `, plays ${targets.get(index).join(" or ")}`;
    if (last.has(index)) label += ", the last move";
    if (winning.has(index)) label += ", in the winning line";
    button.dataset.symbol = cell.symbol;
    button.dataset.player = String(player);
    button.setAttribute("aria-label", label);
    button.setAttribute("aria-disabled", canPlay ? "false" : "true");
    button.classList.toggle("last-move", last.has(index));
    button.classList.toggle("selected", index === page.selected && starts.has(index));
    button.classList.toggle("target", targets.has(index));
    button.classList.toggle("winning", winning.has(index));
    button.classList.remove("hinted");
    const drops = look.kind === "drop" && newlyFilled.length === 1 && newlyFilled[0] === index;
    button.classList.toggle("dropping", drops);
    if (drops) button.style.setProperty("--fall", row);
  });
  if (look.kind === "drop") renderColumns(state, overlay, playable);
  page.drawn = { shape, symbols: board.cells.map((cell) => cell.symbol) };
  drawLines(lines);
  if (look.kind === "hexes") drawEdges($("board-lines"), $("board-area"), cells, board, look);
}

function renderColumns(state, overlay, playable) {
  const board = state.board;
  for (const button of $("columns").children) {
    const col = Number(button.dataset.col);
    const move = board.cells[col].move; // the top cell: playable while the column is not full
    const entry = overlay && move !== null ? overlay[move] : undefined;
    button.querySelector(".value").textContent = entry ? entry.text : "";
    button.querySelector(".value").title = entry ? entry.title : "";
    button.classList.toggle("best", Boolean(entry && entry.best));
    button.setAttribute("aria-disabled", move !== null && playable ? "false" : "true");
    button.setAttribute(
      "aria-label",
      `column ${col + 1}${move === null ? ", full" : ""}${entry ? `, ${entry.title}${entry.best ? ", a best move" : ""}` : ""}`,
    );
  }
}

// The winning line(s), drawn over the board through the centres of their end cells.
function drawLines(lines) {
  const svg = $("board-lines");
  svg.replaceChildren();
  const area = $("board-area");
  svg.setAttribute("width", area.offsetWidth);
  svg.setAttribute("height", area.offsetHeight);
  const cells = $("board").children;
  const centre = (index) => {
    const cell = cells[index];
    return [cell.offsetLeft + cell.offsetWidth / 2, cell.offsetTop + cell.offsetHeight / 2];
  };
  for (const line of lines) {
    const [x1, y1] = centre(line[0]);
    const [x2, y2] = centre(line[line.length - 1]);
    svg.append(svgElement("line", { x1, y1, x2, y2, class: "win-line" }));
  }
}

// A game without a board view is shown as text, with one button per legal move.
function renderMoveList(state, shown, overlay) {
  const list = $("move-list");
  list.hidden = !shown;
  list.replaceChildren();
  if (!shown) return;
  for (const move of isHumanTurn() ? state.legal_moves : []) list.append(moveButton(`Play ${move}`, move, overlay));
}

// Moves that are not cells (a pass, a roll of the die), offered by the board view.
function renderExtraMoves(state, overlay) {
  const list = $("extra-moves");
  const choices = (page.choices || []).map((move) => ({ label: `Play ${move}`, move }));
  const extra = state.board ? [...(state.board.extra_moves || []), ...choices] : [];
  list.hidden = extra.length === 0;
  list.replaceChildren();
  const playable = isHumanTurn();
  for (const { label, move } of extra) {
    const button = moveButton(label, move, overlay);
    button.disabled = !playable || !state.legal_moves.includes(move);
    list.append(button);
  }
}

function moveButton(label, move, overlay) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "move-button";
  button.textContent = label;
  const entry = overlay ? overlay[move] : undefined;
  if (entry) {
    const value = document.createElement("span");
    value.className = "value";
    value.textContent = entry.text;
    value.title = entry.title;
    button.append(value);
    button.classList.toggle("best", entry.best);
    button.setAttribute("aria-label", `${label}, ${entry.title}${entry.best ? ", a best move" : ""}`);
  }
  button.addEventListener("click", () => playMove(move));
  return button;
}

function renderLegend(state, overlay) {
  const legend = $("values-legend");
  legend.hidden = overlay === null;
  if (overlay === null) return;
  const { data, budget } = page.analysis;
  const first = playerNames(state)[0];
  const searched = budget ? ` Found by ${budget}.` : "";
  if (data.visits) {
    legend.textContent = `Visits of each move by ${SEARCHER_NAMES.mcts.toLowerCase()}; the most visited is marked. ` +
      `${data.to_move} to move; the position is worth ${data.description}.${searched}`;
  } else if (valuesAreTheMovers(state, data)) {
    legend.textContent = `Values of each move: the utility ${data.to_move}, who moves, gets from it ` +
      `(higher is better for ${data.to_move}); the best moves are marked. ${data.description}` +
      `${data.is_exact ? "" : " (an estimate, not exact)"}.${searched}`;
  } else {
    legend.textContent = `Values of each move, from ${first}'s point of view (higher is better for ${first}); ` +
      `the best moves are marked. ${data.to_move} to move: ${data.description}` +
      `${data.is_exact ? "" : " (an estimate, not exact)"}.${searched}`;
  }
}

function statusText() {
  const state = current();
  if (page.loading) return "Loading the game of the link…";
  if (state.is_over) return `Game over: ${state.result_words || (state.winner === null ? "a draw" : `${state.winner} wins`)}.`;
  if (page.busy) return `${state.to_move === "chance" ? "The die" : state.to_move} is ${state.to_move === "chance" ? "rolling" : "thinking"}…`;
  if (state.to_move === "chance") {
    return isComputer("chance")
      ? "The die is to roll: press “Computer, move now” to roll it."
      : "The die is to roll: enter the roll below.";
  }
  if (isComputer(state.to_move)) return `${state.to_move} to move (computer): press “Computer, move now” to go on.`;
  return `${state.to_move} to move (your turn).`;
}

function renderPreviewBanner() {
  const banner = $("preview-banner");
  banner.hidden = page.preview === null;
  if (page.preview !== null) $("preview-text").textContent = page.previewText;
}
