// The knowledge check takes nothing from a link: its session is the learner's own.
export const SETTINGS = {};
