import type { Rule } from 'eslint';

export const layersRule: Rule.RuleModule;
declare const plugin: { rules: { layers: Rule.RuleModule } };
export default plugin;
