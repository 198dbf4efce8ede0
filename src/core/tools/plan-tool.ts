/**
 * `update_plan`: the model sets its plan (Codex's arguments). Touches nothing, so it never asks; the
 * engine turns a successful call into a `plan-updated` event, and the rollout keeps the call itself.
 */
import { z } from 'zod';
import { PLAN_STEP_STATUSES } from '../tools/index.js';
import { defineTool, ok } from './handler.js';

const planArguments = z.object({
  explanation: z.string().nullish(),
  plan: z.array(z.object({ step: z.string(), status: z.enum(PLAN_STEP_STATUSES) })),
});

export const updatePlanTool = defineTool('update_plan', planArguments, () => ({
  access: () => ({ kind: 'read', outside: [] }),
  run: () => Promise.resolve(ok('Plan updated')),
}));
