// Per-run budgets on core's run limits: cost, tokens, model calls and working time, each checked
// before a model call. Built on core's public entries only.
export { budgetExtension, type BudgetOptions } from "./budget-extension.js";
