/** How hard an agent CLI is asked to think; each adapter maps it to its own flag (or to nothing). */
export const THINKING_BUDGETS = ['off', 'low', 'medium', 'high'] as const;
export type ThinkingBudget = (typeof THINKING_BUDGETS)[number];
