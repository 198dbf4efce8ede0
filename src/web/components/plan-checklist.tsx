/** The model's plan (`update_plan`): its steps as a checklist, the step in progress marked. */

export interface PlanStepView {
  step: string;
  status: 'pending' | 'in_progress' | 'completed';
}

export interface PlanView {
  explanation?: string;
  plan: PlanStepView[];
}

const MARK: Record<PlanStepView['status'], string> = { pending: '☐', in_progress: '◐', completed: '☑' };

export function PlanChecklist({ plan }: { plan: PlanView }) {
  const done = plan.plan.filter((step) => step.status === 'completed').length;
  return (
    <section class="plan" aria-label="Plan">
      <header class="plan-title">
        Plan <span class="plan-count">{`${done}/${plan.plan.length}`}</span>
      </header>
      {plan.explanation !== undefined && plan.explanation !== '' && (
        <div class="plan-explanation">{plan.explanation}</div>
      )}
      <ol class="plan-steps">
        {plan.plan.map((step, index) => (
          <li key={index} class={`plan-step plan-${step.status}`} data-status={step.status}>
            <span class="plan-mark" aria-hidden="true">
              {MARK[step.status]}
            </span>{' '}
            {step.step}
          </li>
        ))}
      </ol>
    </section>
  );
}
