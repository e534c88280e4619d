import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { HeadlessConfig } from '../../../src/main/router/headless/headlessConfig';
import { SchemaValidator } from '../../../src/main/router/schema/schemaValidator';

const published = JSON.parse(
  readFileSync('src/main/router/headless/headlessConfig.schema.json', 'utf8'),
) as Record<string, unknown>;

describe('the headless config JSON Schema in the README', () => {
  it('is what the parser accepts (regenerate the file from HeadlessConfig when this fails)', () => {
    const generated = z.toJSONSchema(HeadlessConfig, { io: 'input', unrepresentable: 'any' });
    const rest = { ...published };
    delete rest.title;
    expect(rest).toEqual(JSON.parse(JSON.stringify(generated)));
  });

  it("accepts the README's example and refuses a broken one", () => {
    const readme = readFileSync('src/main/router/README.md', 'utf8');
    const example = /<!-- example-config -->\s*```json\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(example).toBeDefined();
    const validator = new SchemaValidator();
    const config = JSON.parse(example!) as Record<string, unknown>;
    expect(validator.validate(published, config)).toEqual([]);
    expect(HeadlessConfig.safeParse(config).success).toBe(true);
    expect(validator.validate(published, { ...config, rules: [{ id: 'x' }] })).not.toEqual([]);
  });
});
