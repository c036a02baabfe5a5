// The "hexes" look (a Hex board): each cell a pointed-top hexagon, each row shifted half
// a cell right of the one above, so the board is a rhombus; the sides the look's `edges`
// give to a player are drawn in that player's colour. The cells are the board's own
// buttons (clipped to hexagons by board.css); this module draws the coloured sides.

import { svgElement } from "./state.js";

// The corners of a cell's hexagon, from its box: top, upper right, lower right,
// bottom, lower left, upper left.
function corners(box) {
  const { left, top, width, height } = box;
  const middle = left + width / 2;
  return {
    top: [middle, top],
    upperRight: [left + width, top + height / 4],
    lowerRight: [left + width, top + (3 * height) / 4],
    bottom: [middle, top + height],
    lowerLeft: [left, top + (3 * height) / 4],
    upperLeft: [left, top + height / 4],
  };
}

// The corners each side of the rhombus runs through: the cells along it, and the
// corners of each cell's hexagon that lie on that side.
const SIDES = {
  top: { cells: (rows, cols) => range(cols), along: ["upperLeft", "top", "upperRight"] },
  bottom: { cells: (rows, cols) => range(cols).map((col) => (rows - 1) * cols + col), along: ["lowerLeft", "bottom", "lowerRight"] },
  left: { cells: (rows, cols) => range(rows).map((row) => row * cols), along: ["upperLeft", "lowerLeft"] },
  right: { cells: (rows, cols) => range(rows).map((row) => row * cols + cols - 1), along: ["upperRight", "lowerRight"] },
};

function range(count) {
  return Array.from({ length: count }, (_, index) => index);
}

// Draw the coloured sides of the board into `svg` (laid over `area`), one polyline a
// side, in the colour of the player the look gives it.
export function drawEdges(svg, area, cells, board, look) {
  const origin = area.getBoundingClientRect();
  for (const [side, player] of Object.entries(look.edges || {})) {
    const shape = SIDES[side];
    if (!shape) continue;
    const points = [];
    for (const index of shape.cells(board.rows, board.cols)) {
      const box = cells[index].getBoundingClientRect();
      const at = corners({ left: box.left - origin.left, top: box.top - origin.top, width: box.width, height: box.height });
      for (const corner of shape.along) points.push(at[corner].map((value) => value.toFixed(1)).join(","));
    }
    svg.append(svgElement("polyline", { points: points.join(" "), class: "board-edge", "data-player": String(player), "data-side": side }));
  }
}
