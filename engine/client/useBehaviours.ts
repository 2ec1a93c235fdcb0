import { useState } from 'react';
import type { BehaviourDefinition, PageDefinition, ScalarValue } from '../schema/index.js';
import type { BehaviourResponse, GenericRow } from '../schema/api.js';
import { useEngineServices, type EngineServices } from './services.js';
import { resolveLabel } from './model/resolveLabel.js';
import { isBehaviourAllowed } from './model/isBehaviourEnabled.js';
import type { PageRights } from './model/pageRights.js';

export interface Behaviours {
  /** The page's behaviours the caller's rights allow (the page right and the action's own), in their sequence. */
  allowed: BehaviourDefinition[];
  /** Confirms (when the behaviour asks to), runs it on the selected rows and reloads; one with inputs asks for them first. */
  run: (behaviour: BehaviourDefinition) => Promise<void>;
  /** The behaviour whose inputs are being asked, if any. */
  asking: BehaviourDefinition | null;
  /** Runs the asked behaviour with the collected inputs; rejects with the refusal for the dialog to show. */
  runWithInputs: (behaviour: BehaviourDefinition, inputs: Record<string, ScalarValue>) => Promise<void>;
  /** Closes the inputs dialog without running anything. */
  stopAsking: () => void;
}

function behaviourMessage(services: EngineServices, page: PageDefinition, answer: BehaviourResponse): string {
  if (!answer.messageCode) return services.t('ui.engine.behaviourDone');
  if (services.hasText(answer.messageCode)) return services.t(answer.messageCode, answer.messageParams);
  return resolveLabel(answer.messageCode, page, services);
}

/**
 * The toolbar behaviours of a page: confirm, ask for inputs, dispatch to
 * `/generic/behavior` with the selected rows' keys, tell the outcome, then reload the list through
 * `onDone`. The server checks the right and the enabling rule again.
 */
export function useBehaviours(
  page: PageDefinition,
  rights: PageRights,
  selected: GenericRow[],
  label: (code: string) => string,
  onDone: () => void,
  /** Behaviours (by code) whose action's own right the caller lacks (`PageViewResponse.deniedBehaviours`). */
  denied: readonly string[] = [],
): Behaviours {
  const services = useEngineServices();
  const [asking, setAsking] = useState<BehaviourDefinition | null>(null);

  const allowed = (page.behaviours ?? [])
    .filter((behaviour) => isBehaviourAllowed(behaviour, rights) && !denied.includes(behaviour.code))
    .sort((a, b) => (a.sequence ?? 0) - (b.sequence ?? 0));

  const keysFor = (behaviour: BehaviourDefinition) => (behaviour.selection === 'none' ? [] : selected.map((row) => row._key));

  /** The server's preview of what the behaviour will do; undefined when it could not be had (the fixed text is shown alone). */
  const previewOf = async (behaviour: BehaviourDefinition): Promise<BehaviourResponse | undefined> => {
    try {
      return await services.call<BehaviourResponse>(
        '/generic/behavior',
        { moduleCode: page.moduleCode, functionCode: page.functionCode, behaviour: behaviour.code, keys: keysFor(behaviour), preview: true },
        { quiet: true },
      );
    } catch {
      return undefined;
    }
  };

  // A destructive action with `confirmPreview` shows what it will do, computed by the server, above its fixed text;
  // when the server says the run would be refused, the refusal is shown instead and nothing is offered to confirm.
  const confirmBehaviour = async (behaviour: BehaviourDefinition): Promise<boolean> => {
    if (!behaviour.confirm) return true;
    const fixed = label(behaviour.confirmTextCode ?? 'ui.engine.confirmRun');
    const preview = behaviour.confirmPreview === true ? await previewOf(behaviour) : undefined;
    if (preview?.refusal) {
      await services.message({ type: 'error', content: preview.refusal.message });
      return false;
    }
    return services.confirm({
      title: label(behaviour.labelCode),
      content: preview ? `${behaviourMessage(services, page, preview)}\n\n${fixed}` : fixed,
      okText: services.t('ui.engine.ok'),
      cancelText: services.t('ui.engine.cancel'),
    });
  };

  const callBehaviour = async (behaviour: BehaviourDefinition, inputs: Record<string, ScalarValue> | undefined, quiet: boolean) => {
    const answer = await services.call<BehaviourResponse>(
      '/generic/behavior',
      {
        moduleCode: page.moduleCode,
        functionCode: page.functionCode,
        behaviour: behaviour.code,
        keys: keysFor(behaviour),
        ...(inputs ? { inputs } : {}),
      },
      quiet ? { quiet: true } : undefined,
    );
    // Links of the answer (the document the action made) are offered under the message; one opens its page filtered to it.
    const links = (answer.links ?? []).map((link) => ({
      text: services.hasText(link.labelCode) ? services.t(link.labelCode, link.labelParams) : resolveLabel(link.labelCode, page, services),
      testId: `behaviour-link-${link.functionCode}-${Object.values(link.filter).join('-')}`,
      onOpen: () => services.openPage(link.moduleCode, link.functionCode, link.filter),
    }));
    await services.message({ type: 'success', content: behaviourMessage(services, page, answer), ...(links.length > 0 ? { links } : {}) });
  };

  const run = async (behaviour: BehaviourDefinition) => {
    // A behaviour that declares inputs asks for them first (BehaviourInputsDialog, which also confirms), then runs.
    if ((behaviour.inputs ?? []).length > 0) {
      setAsking(behaviour);
      return;
    }
    if (!(await confirmBehaviour(behaviour))) return;
    try {
      await callBehaviour(behaviour, undefined, false);
    } catch {
      // The host has shown the refusal in the message popup; the list still reloads below.
    }
    onDone();
  };

  const runWithInputs = async (behaviour: BehaviourDefinition, inputs: Record<string, ScalarValue>) => {
    // The dialog shows the confirm text and its OK is the confirmation. Quiet: the dialog shows a refusal on its inputs and stays open; nothing ran.
    await callBehaviour(behaviour, inputs, true);
    setAsking(null);
    onDone();
  };

  return { allowed, run, asking, runWithInputs, stopAsking: () => setAsking(null) };
}
