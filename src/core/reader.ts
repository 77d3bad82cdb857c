/**
 * Who reads what tollgate prints. A person at their own terminal is told the commands only a person may run
 * (`tollgate policy accept`, `waive --human`); an agent is told that a person must act, never how: an agent that
 * follows its instructions must not find the way around the gate in them. Decided where the text is rendered, never
 * stored with a report (a stored report is replayed to whoever asks later).
 */
export type Reader = 'person' | 'agent';
