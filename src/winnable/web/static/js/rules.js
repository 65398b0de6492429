// Rules pages: /rules/{game} serves the page of the game's family; point the "Play"
// buttons at that game and bring its own section into view.

const game = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
if (game) {
  for (const link of document.querySelectorAll("a[data-play]")) link.href = `/play/${encodeURIComponent(game)}`;
  const section = document.getElementById(game);
  if (section) {
    section.classList.add("current");
    if (section.dataset.scroll !== "no") section.scrollIntoView({ block: "start" });
    const title = section.dataset.title;
    if (title) for (const node of document.querySelectorAll("[data-game-title]")) node.textContent = title;
  }
}
