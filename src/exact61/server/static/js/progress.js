// The learner's progress on the Learn page, kept in this browser (localStorage) in the form of
// the terminal's progress file (learn/tour.json): the step reached, each step's result, and the
// stage: the lessons, the guided match after them, or done. The page's own additions: the
// guided match's game (`game`), so that it is gone on with, not begun again, and whether one
// was played to its end (`guided`).

const STORED = "exact61.learn.tour";
const FORMAT = "exact61-progress/1"; // as the terminal's progress file (learn/tour.json)
const STAGES = ["lessons", "match", "done"];

/** The progress kept in this browser: {step, results, stage, game, guided}, or a fresh one
 * (`game`: the guided match begun here; `guided`: "done" once one was played to its end). */
export function loadProgress() {
  try {
    const kept = JSON.parse(localStorage.getItem(STORED) || "null");
    if (kept && kept.format === FORMAT) {
      const results = kept.results && typeof kept.results === "object" ? kept.results : {};
      const stage = STAGES.includes(kept.stage) ? kept.stage : "lessons";
      const game = typeof kept.game === "string" ? kept.game : "";
      return { step: String(kept.step || ""), results, stage, game, guided: kept.guided === "done" ? "done" : "" };
    }
  } catch {
    // storage off or the entry unreadable: the tour starts from its first step
  }
  return { step: "", results: {}, stage: "lessons", game: "", guided: "" };
}

export function saveProgress(progress) {
  try {
    localStorage.setItem(STORED, JSON.stringify({ format: FORMAT, ...progress }));
  } catch {
    // storage may be off: the tour goes on, only not kept
  }
}

/** The guided match `game`, begun from the Learn page, is over: kept as played, and the tour
 * is done if its lessons were (a match begun before their end leaves them where they were). */
export function guidedMatchDone(game) {
  const progress = loadProgress();
  if (progress.game !== game || progress.guided === "done") return;
  saveProgress({ ...progress, guided: "done", stage: progress.stage === "match" ? "done" : progress.stage });
}
