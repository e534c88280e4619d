/**
 * The delivered payload as spec 000 describes it ("Delivered event payload"), as JSON Schema draft
 * 2020-12. `time_in_ms` is declared as a string in the spec's schema but described as an integer and
 * carried as a number in payloads; we send a number and say so here.
 */
export const DELIVERED_PAYLOAD_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  required: ['rule_id', 'target_id', 'version', 'attempt', 'account', 'events'],
  additionalProperties: false,
  properties: {
    rule_id: { type: 'string', pattern: '^[0-9]+$' },
    target_id: { type: 'string', pattern: '^[0-9]+$' },
    version: { type: 'integer' },
    attempt: { type: 'integer', minimum: 1 },
    account: {
      type: 'object',
      required: ['org_id', 'project'],
      properties: {
        org_id: { type: 'string' },
        project: {
          type: 'object',
          required: ['name', 'environment', 'id'],
          properties: {
            name: { type: 'string' },
            environment: { type: 'string' },
            id: { type: 'string' },
          },
        },
      },
    },
    events: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        required: ['data', 'id', 'time_in_ms', 'source', 'event_config'],
        additionalProperties: false,
        properties: {
          data: { type: 'object' },
          id: { type: 'string', pattern: '^[0-9]+$' },
          time_in_ms: { type: 'integer' },
          source: { type: 'string', pattern: '^[^/]+/[^/]+/[^/]+$' },
          event_config: {
            type: 'object',
            required: ['id', 'api_name'],
            properties: {
              id: { type: 'string', pattern: '^[0-9]+$' },
              api_name: { type: 'string' },
            },
          },
        },
      },
    },
  },
} as const;
