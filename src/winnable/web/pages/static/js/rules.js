// Rules pages: /rules/{game} serves the page of the game's family (its links to play
// already name the game); mark the game's own section and bring it into view.

const game = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
const section = game ? document.getElementById(game) : null;
if (section) {
  section.classList.add("current");
  if (section.dataset.scroll !== "no") section.scrollIntoView({ block: "start" });
}
