// Globals of the browser client that no module declares (only tsc reads this file).

interface Window {
  /** The live table's hooks for the browser tests (tablepage.js): the last state, and the
   * CSS selectors to click, in order, that play an action (null if it is not legal now). */
  cardtable?: {
    state: () => import("./protocol").StateMessage | null;
    clicksFor: (action: string) => string[] | null;
  };
}
