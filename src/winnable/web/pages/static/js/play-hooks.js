// The game page's modules stand in layers: the page's state (play-state.js) and the overlay
// (play-overlay.js) at the bottom, drawing (play-draw.js) above them, the game's actions
// (play-game.js) above drawing, then picking up and putting down (play-pick.js), review
// (play-review.js) and the dialogs (play-dialogs.js); Show me (play-showme.js) stands above
// the game's actions and picking, below review (which offers its line after a loss);
// play.js wires them. A module imports
// only from the layers below it; where a lower one must call up (drawing shows the
// selection, a new state opens the win dialog), it calls a hook that play.js sets at start.

const nothing = () => {};

export const hooks = {
  /** play-pick.js: mark the picked-up cards and where they may go (after a redraw). */
  showSelection: nothing,
  /** play-pick.js: put the picked-up cards down. */
  clearSelection: nothing,
  /** play-review.js: mark the reviewed move (after a redraw). */
  highlightReview: nothing,
  /** play-review.js: ask whether the position is still winnable. */
  checkWinnable: nothing,
  /** play-review.js: leave "where did I lose?". */
  endReview: nothing,
  /** play-showme.js: leave the solver's line shown on the table. */
  endShow: nothing,
  /** play-review.js: the "still winnable?" badge. */
  setBadge: nothing,
  /** play-dialogs.js: the won and lost dialogs. */
  showWin: nothing,
  showLost: nothing,
};

/** Fill in the hooks (play.js, once, before the first state arrives). */
export function setHooks(handlers) {
  for (const [name, handler] of Object.entries(handlers)) {
    if (!(name in hooks)) throw new TypeError(name);
    hooks[name] = handler;
  }
}
