/**
 * The model's plan (the `update_plan` tool, in Codex's shape): the steps and their status, as last set.
 * The rollout holds each `update_plan` function call, so the current plan is derived from the history.
 */
import type { ResponseItem } from '../../protocol/index.js';

export const PLAN_STEP_STATUSES = ['pending', 'in_progress', 'completed'] as const;
export type PlanStepStatus = (typeof PLAN_STEP_STATUSES)[number];

export interface PlanStep {
  step: string;
  status: PlanStepStatus;
}

/** The arguments of Codex's `update_plan` call: an optional explanation and the whole list of steps. */
export interface Plan {
  explanation?: string;
  plan: PlanStep[];
}

export const UPDATE_PLAN_TOOL = 'update_plan';

/** The plan an `update_plan` call's arguments set, or undefined when they are not a valid plan. */
export function parsePlanArguments(text: string): Plan | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const record = parsed as Record<string, unknown>;
  if (!Array.isArray(record.plan)) return undefined;
  const steps: PlanStep[] = [];
  for (const entry of record.plan as unknown[]) {
    if (typeof entry !== 'object' || entry === null) return undefined;
    const { step, status } = entry as Record<string, unknown>;
    if (typeof step !== 'string' || !isStatus(status)) return undefined;
    steps.push({ step, status });
  }
  const explanation = record.explanation;
  if (explanation !== undefined && explanation !== null && typeof explanation !== 'string') return undefined;
  return { ...(typeof explanation === 'string' ? { explanation } : {}), plan: steps };
}

function isStatus(value: unknown): value is PlanStepStatus {
  return typeof value === 'string' && (PLAN_STEP_STATUSES as readonly string[]).includes(value);
}

/** The plan the last valid `update_plan` call of the history set (resume restores it from the rollout). */
export function planFromHistory(items: readonly ResponseItem[]): Plan | undefined {
  for (let index = items.length - 1; index >= 0; index -= 1) {
    const item = items[index];
    if (item?.type !== 'function_call' || item.name !== UPDATE_PLAN_TOOL) continue;
    const plan = parsePlanArguments(item.arguments);
    if (plan) return plan;
  }
  return undefined;
}
