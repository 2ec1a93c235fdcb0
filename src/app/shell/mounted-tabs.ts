/**
 * How many tabs stay mounted with keep-alive: the active one and the ones used last. Each mounted
 * page keeps its grid, its data and its timers alive, so a user who opened dozens of tabs would
 * otherwise make every further step in the browser slower; a tab beyond these stays open in the tab
 * bar and loads again when chosen.
 */
export const MOUNTED_TABS = 10;
