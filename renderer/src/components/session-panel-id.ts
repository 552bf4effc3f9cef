/** The element id of the shown session, which its tab controls. */
export const SESSION_PANEL_ID = 'session-panel';
