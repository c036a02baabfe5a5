// How a game is drawn: the look its plugin declares (the catalogue's `look` of the game),
// read here into what the drawing needs. The page holds no table of games: a game
// without a declared look is a grid of its board view's symbols.
//
// A look's fields (see gamesearch.looks.BoardLook): kind ("grid", "drop", "marks",
// "discs", "pieces", "hexes"), checkered, glyphs, names, crowned, player_of ("names" or
// "case"), win_length and win_length_option, coordinates ("from-bottom", "from-top" or
// null), edges (the player whose colour each side of the board wears).

import { gameEntry, svgElement } from "./state.js";

const PLAIN = {
  kind: "grid",
  checkered: false,
  glyphs: {},
  names: {},
  crowned: [],
  player_of: "names",
  win_length: null,
  win_length_option: null,
  coordinates: null,
  edges: {},
};

export function lookFor(state) {
  return { ...PLAIN, ...(gameEntry(state).look || {}) };
}

// How many in a row win (for drawing the winning line), or null.
export function winLength(look, state) {
  const option = look.win_length_option;
  if (option && option in state.options) return Number(state.options[option]) || look.win_length;
  return look.win_length;
}

// The player a symbol belongs to: 0 (first), 1 (second) and so on, or -1 (nobody). By
// player names: the symbol is a name, else the player whose name starts with its letter
// (either case: "b" and "B" for "Black"); by case: upper case is the first player.
export function playerOf(look, names, symbol) {
  if (symbol === "") return -1;
  if (look.player_of === "case") return symbol === symbol.toUpperCase() ? 0 : 1;
  const index = names.indexOf(symbol);
  if (index >= 0 || symbol.length !== 1) return index;
  return names.findIndex((name) => name[0].toLowerCase() === symbol.toLowerCase());
}

// A cell's name for a screen reader: "a8" on a board with coordinates, else its row
// and column ("row 1, column 3").
export function cellName(look, board, index) {
  const row = Math.floor(index / board.cols), col = index % board.cols;
  if (!look.coordinates) return `row ${row + 1}, column ${col + 1}`;
  return `${columnLabel(col)}${rowLabel(look, board, row)}`;
}

export function columnLabel(col) {
  return String.fromCharCode("a".charCodeAt(0) + col);
}

export function rowLabel(look, board, row) {
  return String(look.coordinates === "from-top" ? row + 1 : board.rows - row);
}

// What a cell holds, for a screen reader: "black rook on a8", "empty square e4", and on a
// board without coordinates "X, row 1, column 3", "empty, row 1, column 1".
export function cellLabel(look, board, index) {
  const symbol = board.cells[index].symbol;
  const where = cellName(look, board, index);
  if (!look.coordinates) return `${look.names[symbol] || symbol || "empty"}, ${where}`;
  return symbol === "" ? `empty square ${where}` : `${look.names[symbol] || symbol} on ${where}`;
}

// The cells a move plays.
export function cellsOfMove(board, move) {
  const cells = [];
  board.cells.forEach((cell, index) => {
    if (cell.move === move) cells.push(index);
  });
  return cells;
}

// Runs of at least `length` cells holding `symbol`, in the four directions.
export function winningLines(board, symbol, length) {
  const { rows, cols } = board;
  const at = (row, col) => board.cells[row * cols + col].symbol;
  const lines = [];
  for (const [dr, dc] of [[0, 1], [1, 0], [1, 1], [1, -1]]) {
    for (let row = 0; row < rows; row += 1) {
      for (let col = 0; col < cols; col += 1) {
        const pr = row - dr, pc = col - dc; // start only where the run starts
        if (at(row, col) !== symbol) continue;
        if (pr >= 0 && pr < rows && pc >= 0 && pc < cols && at(pr, pc) === symbol) continue;
        const run = [];
        for (let r = row, c = col; r >= 0 && r < rows && c >= 0 && c < cols && at(r, c) === symbol; r += dr, c += dc) {
          run.push(r * cols + c);
        }
        if (run.length >= length) lines.push(run);
      }
    }
  }
  return lines;
}

// The cells the last move changed: those that were empty before it, else all changed.
export function lastMoveCells(before, after) {
  if (!before || !after || before.cells.length !== after.cells.length) return [];
  const changed = [], filled = [];
  after.cells.forEach((cell, index) => {
    const old = before.cells[index].symbol;
    if (old !== cell.symbol) {
      changed.push(index);
      if (old === "") filled.push(index);
    }
  });
  return filled.length ? filled : changed;
}

// A drawn mark: X for the first player, O for the others.
export function markSvg(player) {
  const svg = svgElement("svg", { viewBox: "0 0 100 100", class: "mark", "aria-hidden": "true" });
  if (player === 0) {
    svg.append(svgElement("path", { d: "M22 22 L78 78 M78 22 L22 78" }));
  } else {
    svg.append(svgElement("circle", { cx: 50, cy: 50, r: 29 }));
  }
  return svg;
}

// Whether the look draws a player's pieces in colours a person must tell apart.
export function hasColourKey(look) {
  return drawsDiscs(look);
}

// Whether the look draws a player's pieces as round stones of the player's colour.
export function drawsDiscs(look) {
  return look.kind === "drop" || look.kind === "discs" || look.kind === "hexes";
}
