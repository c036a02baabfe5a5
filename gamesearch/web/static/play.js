// Playing: new games, a person's moves, the computer's, undo, the move values and the hint,
// and a position of the search tree shown on the board.

import { api, positionRequest, readInputs, searchRequest, searchWords } from "./api.js";
import { render } from "./board.js";
import { clearTree, describeNode, drawTree, pathTo, valueText } from "./explorer.js";
import { cellsOfMove, lookFor } from "./looks.js";
import { goTo } from "./record.js";
import { isComputer, isHumanTurn } from "./setup.js";
import { $, current, page, showError } from "./state.js";

export async function newGame(position) {
  showError(null);
  page.generation += 1;
  page.busy = false;
  page.preview = null;
  const request = { game: $("game-select").value, options: readInputs($("game-options")) };
  let state;
  try {
    state = position ? await api("/api/position", { ...request, position }) : await api("/api/new", request);
  } catch (error) {
    showError(error);
    return false;
  }
  page.record = { states: [state], moves: [], index: 0, fromStart: !position };
  $("analysis").textContent = "";
  positionChanged();
  return true;
}

export function cellClicked(index) {
  const board = (page.preview || current()).board;
  const move = board.cells[index].move;
  if (move !== null) {
    playMove(move);
    return;
  }
  const paths = board.paths || [];
  if (!paths.length || !isHumanTurn()) return;
  // a move of two clicks: the first picks a piece, the second the cell it goes to
  const chosen = paths.filter((path) => path.cells[0] === page.selected && path.cells[path.cells.length - 1] === index);
  page.choices = null;
  if (chosen.length === 1) {
    page.selected = null;
    playMove(chosen[0].move);
    return;
  }
  if (chosen.length > 1) page.choices = chosen.map((path) => path.move); // offered as buttons
  else page.selected = index !== page.selected && paths.some((path) => path.cells[0] === index) ? index : null;
  render();
}

export function columnClicked(col) {
  const move = (page.preview || current()).board.cells[col].move;
  if (move !== null) playMove(move);
}

export async function playMove(move) {
  const state = current();
  if (!isHumanTurn() || page.playing) return;
  showError(null);
  page.playing = true;
  try {
    const next = await api("/api/play", positionRequest(state, { move }));
    page.playing = false;
    advance(next, { move, player: state.to_move });
  } catch (error) {
    page.playing = false;
    showError(error);
  }
}

function advance(next, entry) {
  const record = page.record;
  record.states.splice(record.index + 1);
  record.moves.splice(record.index);
  record.states.push(next);
  record.moves.push(entry);
  record.index += 1;
  page.generation += 1;
  // the computer is about to move: its search, not an analysis, gets the time
  positionChanged(!next.is_over && isComputer(next.to_move));
  maybeEngineMove();
}

// After any change of the position shown: redraw, drop the old tree, analyse if asked
// (unless the computer moves next).
export function positionChanged(computerMovesNext = false) {
  page.selected = page.choices = null;
  clearTree();
  render();
  if ($("show-values").checked && !computerMovesNext) analyse();
}

// Let the computer move if it plays the side to move. Opening a page (a link) never
// rolls the die by itself: the position of the link is shown as it is.
export function maybeEngineMove({ opening = false } = {}) {
  const state = current();
  if (!state || state.is_over || page.busy || page.preview !== null || !isComputer(state.to_move)) return;
  if (opening && state.to_move === "chance") return;
  engineMove();
}

export async function engineMove() {
  const state = current();
  if (page.busy || state.is_over) return;
  showError(null);
  page.preview = null;
  page.busy = true;
  const generation = page.generation;
  render();
  try {
    const request = searchRequest(state, "move");
    const answer = await api("/api/move", request);
    if (generation !== page.generation) return;
    page.busy = false;
    const search = answer.search;
    const stats = search.stats;
    $("analysis").textContent = state.to_move === "chance"
      ? `The die rolled ${answer.move}.`
      : `${search.to_move} played ${answer.move}: ${search.description}. ` +
        `${searchWords(request.searcher, request, stats.depth, search.is_exact)}: ` +
        `${stats.nodes.toLocaleString("en")} nodes in ${stats.seconds.toFixed(2)} s.`;
    advance(answer.state, { move: answer.move, player: search.to_move });
  } catch (error) {
    if (generation !== page.generation) return;
    page.busy = false;
    render();
    showError(error);
  }
}

export function undo() {
  const record = page.record;
  if (record.index === 0) return;
  // Take back moves until it is a human's turn again (the human's move and the reply).
  let index = record.index;
  do {
    index -= 1;
  } while (index > 0 && isComputer(record.states[index].to_move));
  record.states.splice(index + 1);
  record.moves.splice(index);
  goTo(index);
}

export async function analyse() {
  const state = current();
  if (state.is_over) return null;
  const generation = page.generation;
  const request = searchRequest(state, "analysis");
  let data;
  try {
    data = await api("/api/analyze", request);
  } catch (error) {
    if (generation === page.generation) showError(error);
    return null;
  }
  if (generation !== page.generation) return null;
  const budget = searchWords(request.searcher, request, data.stats.depth, data.is_exact);
  page.analysis = { position: state.position, data, budget };
  render();
  return page.analysis;
}

export async function hint() {
  showError(null);
  const shown = await analyse();
  if (shown === null) return;
  const answer = shown.data;
  $("analysis").textContent =
    `Hint for ${answer.to_move}: ${answer.best_moves.join(", ")} ` +
    `(${answer.description}; line ${answer.pv.join(" ")}). Found by ${shown.budget}; ` +
    "a search with another budget (the explorer's, say) may value it otherwise.";
  const board = current().board;
  const cells = $("board").children;
  const look = lookFor(current());
  board?.cells.forEach((cell, index) => {
    const isHinted = cell.move === answer.move && (look.kind !== "drop" || index === dropTarget(board, cell.move));
    const ends = (board.paths || []).filter((path) => path.move === answer.move)
      .flatMap((path) => [path.cells[0], path.cells[path.cells.length - 1]]);
    cells[index].classList.toggle("hinted", isHinted || ends.includes(index));
  });
  if (!$("show-values").checked) {
    page.analysis = null;
  }
}

// The lowest empty cell of a drop game's column: where its disc lands.
function dropTarget(board, move) {
  const cells = cellsOfMove(board, move).filter((index) => board.cells[index].symbol === "");
  return cells.length ? cells[cells.length - 1] : -1;
}

// ------------------------------------------------------ the tree on the board
export async function showNode(node) {
  const tree = page.tree;
  tree.selected = node;
  drawTree();
  describeNode(node);
  const state = current();
  let preview;
  try {
    preview = node.cut
      ? await api("/api/play", { game: state.game, options: state.options, position: node.parent.position, move: node.move })
      : await api("/api/position", { game: state.game, options: state.options, position: node.position });
  } catch (error) {
    showError(error);
    return;
  }
  if (page.tree !== tree) return;
  page.preview = preview;
  const line = pathTo(node).map((step) => step.move).join(" ");
  page.previewText = node.depth === 0
    ? "Showing the root of the search tree (the game's position)."
    : `Showing a position from the search tree, after ${line}` +
      (node.cut ? " (cut off unsearched)." : `: value ${valueText(node)}.`);
  render();
}

export function backToGame() {
  if (page.preview === null) return;
  page.preview = null;
  render();
}
