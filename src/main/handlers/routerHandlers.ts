import type { Handlers } from '../bridge/dispatcher';
import type { RouterEngine } from '../router/engine/routerEngine';
import type { RouterIngress } from '../router/routerIngress';

type RouterRequest = Extract<keyof Handlers, `router.${string}`>;

/** The event-router sandbox's requests, over the router engine and its (lazily started) ingress. */
export function routerHandlers(deps: {
  engine: RouterEngine;
  ingress: RouterIngress;
}): Pick<Handlers, RouterRequest> {
  const { engine: router, ingress } = deps;
  return {
    'router.overview': () => router.overview(),
    'router.startIngress': async () => ({ url: await ingress.start() }),
    'router.setAccount': (account) => router.setAccount(account),
    'router.createPublisher': async ({ name }) => {
      // A custom publisher is useless without somewhere to post: the ingress starts with it.
      await ingress.start();
      return router.createPublisher({ name });
    },
    'router.rotateApiKey': ({ publisherId }) => ({ apiKey: router.rotateApiKey(publisherId) }),
    'router.setPublisherStatus': ({ id, status }) => router.setPublisherStatus(id, status),
    'router.createEvent': (args) => router.createEvent(args),
    'router.schemaVersions': ({ eventConfigId }) => router.schemaVersions(eventConfigId),
    'router.setSample': ({ eventConfigId, sample, merge, required }) =>
      router.setSample(eventConfigId, sample, merge, required ? { required } : {}),
    'router.editSchemaKeys': ({ eventConfigId, add, remove, require }) =>
      router.editSchemaKeys(eventConfigId, add, remove, require),
    'router.validateSample': ({ eventConfigId, sample }) =>
      router.validateSample(eventConfigId, sample),
    'router.startCapture': async ({ eventConfigId }) => {
      await ingress.start();
      const capture = router.startCapture(eventConfigId);
      return {
        url: ingress.captureUrl(capture.token) as string,
        expiresAt: capture.expiresAt,
        nowMs: capture.nowMs,
      };
    },
    'router.saveRule': (rule) => router.saveRule(rule),
    'router.setRuleStatus': ({ id, status }) => router.setRuleStatus(id, status),
    'router.saveTarget': (target) => router.saveTarget(target),
    'router.setTargetStatus': ({ id, status }) => router.setTargetStatus(id, status),
    'router.listEvents': (query) => router.listEvents(query),
    'router.getEvent': ({ id }) => router.getEvent(id),
    'router.redeliver': ({ id }) => ({ id: router.redeliver(id) }),
    'router.sendTestEvent': ({ eventConfigId }) => ({ id: router.sendTestEvent(eventConfigId) }),
    'router.requestBin': ({ targetId, limit }) => router.requestBin(targetId, limit),
  };
}
