/**
 * The layering rule: which part of src/ may import which. Layers are folders (src/<layer>/...).
 *
 *   shared    imports nothing of ours and no platform (no Node built-ins, no electron, no DOM libs)
 *   main      shared, main, emulator (the demo portal embeds the emulator)
 *   emulator  shared, emulator
 *   preload   only `import type` from shared; at run time only electron
 *   renderer  shared, renderer; never main, preload, emulator, Node built-ins or electron
 *
 * Inside the renderer (src/renderer/src/<room>/...), imports run one way, from the frame down:
 *
 *   ui        the UI kit (icons, empty states, copy buttons): nothing of the renderer but itself
 *   bridge    the link to the engine: nothing of the renderer but itself
 *   app       the shell's state (sections, theme, settings store): ui, bridge
 *   features  one folder per area: app, ui, bridge, and each other
 *   frame     the window around them (App, sidebar, status bar): everything above
 *   main.tsx  the entry point wires stores and frame: everything
 */
import { builtinModules } from 'node:module';
import path from 'node:path';

const LAYERS = ['shared', 'main', 'emulator', 'preload', 'renderer'];

/** What each layer may import from src/, at run time and as types. */
const MAY_IMPORT = {
  shared: { runtime: ['shared'], types: ['shared'] },
  main: { runtime: ['shared', 'main', 'emulator'], types: ['shared', 'main', 'emulator'] },
  emulator: { runtime: ['shared', 'emulator'], types: ['shared', 'emulator'] },
  preload: { runtime: ['preload'], types: ['shared', 'preload'] },
  renderer: { runtime: ['shared', 'renderer'], types: ['shared', 'renderer'] },
};

/** Packages a layer may not use at all (bare specifiers), checked by prefix. */
const FORBIDDEN_PACKAGES = {
  shared: ['electron', 'react', 'react-dom', 'better-sqlite3', 'ws', 'zustand', 'node:'],
  emulator: ['electron', 'react', 'react-dom', 'zustand'],
  preload: ['node:', 'better-sqlite3', 'ws', 'react', 'zod'],
  renderer: ['electron', 'better-sqlite3', 'ws', 'node:'],
  main: ['react', 'react-dom', 'zustand'],
};

/** Files outside src/ a layer may read: the app's name and version, and the window icon. */
const OUTSIDE_SRC = { main: ['package.json', path.join('resources', 'icon.png')] };

const NODE_BUILTINS = new Set(builtinModules);

/** What each room of the renderer may import from the renderer (see the header). */
const RENDERER_ROOMS = {
  ui: ['ui'],
  bridge: ['bridge'],
  app: ['app', 'ui', 'bridge'],
  features: ['features', 'app', 'ui', 'bridge'],
  frame: ['frame', 'features', 'app', 'ui', 'bridge'],
};

/** The room of a file under src/renderer/src, or null for the entry point and other files. */
function rendererRoom(file, root) {
  const parts = path.relative(path.join(root, 'renderer', 'src'), file).split(path.sep);
  if (parts.length < 2 || parts[0] === '..') return null;
  return Object.hasOwn(RENDERER_ROOMS, parts[0]) ? parts[0] : null;
}

function layerOf(file) {
  const parts = path.normalize(file).split(path.sep);
  // The first `src/<layer>`: the renderer has a src/ of its own inside (src/renderer/src/...).
  const src = parts.findIndex((part, i) => part === 'src' && LAYERS.includes(parts[i + 1]));
  if (src === -1) return null;
  return { layer: parts[src + 1], root: parts.slice(0, src + 1).join(path.sep) };
}

function isTypeOnly(node) {
  if (node.importKind === 'type' || node.exportKind === 'type') return true;
  const specifiers = node.specifiers ?? [];
  return (
    node.type === 'ImportDeclaration' &&
    specifiers.length > 0 &&
    specifiers.every((s) => s.importKind === 'type')
  );
}

export const layersRule = {
  meta: {
    type: 'problem',
    docs: { description: 'Keep shared, main, emulator, preload and renderer in their lanes.' },
    schema: [],
    messages: {
      layer: '{{from}} may not import {{what}} from {{to}} ({{why}}).',
      package: '{{from}} may not import "{{name}}" ({{why}}).',
      room: 'src/renderer/src/{{from}} may not import from src/renderer/src/{{to}} (imports run from the frame down; allowed: {{allowed}}).',
    },
  },
  create(context) {
    const file = context.filename ?? context.getFilename();
    const here = layerOf(file);
    if (!here) return {};
    const rules = MAY_IMPORT[here.layer];

    function check(node, source, typeOnly) {
      if (!source || typeof source.value !== 'string') return;
      const spec = source.value;
      if (spec.startsWith('.')) {
        // Vite import suffixes (`?raw`, `?asset`) name the same file.
        const resolved = path.resolve(path.dirname(file), spec.replace(/\?.*$/, ''));
        const target = layerOf(resolved);
        if (
          !target &&
          (OUTSIDE_SRC[here.layer] ?? []).includes(path.relative(path.dirname(here.root), resolved))
        ) {
          return;
        }
        const to = target?.layer ?? 'outside src/';
        if (here.layer === 'renderer' && to === 'renderer') {
          const fromRoom = rendererRoom(file, here.root);
          const toRoom = rendererRoom(resolved, here.root);
          if (fromRoom && toRoom && !RENDERER_ROOMS[fromRoom].includes(toRoom)) {
            context.report({
              node,
              messageId: 'room',
              data: { from: fromRoom, to: toRoom, allowed: RENDERER_ROOMS[fromRoom].join(', ') },
            });
          }
          return;
        }
        const allowed = typeOnly ? rules.types : rules.runtime;
        if (!allowed.includes(to)) {
          context.report({
            node,
            messageId: 'layer',
            data: {
              from: `src/${here.layer}`,
              what: typeOnly ? 'types' : 'code',
              to: target ? `src/${to}` : to,
              why: `allowed: ${allowed.map((l) => `src/${l}`).join(', ') || 'nothing'}`,
            },
          });
        }
        return;
      }
      if (typeOnly) return;
      const forbidden = FORBIDDEN_PACKAGES[here.layer] ?? [];
      const name = spec.startsWith('node:') ? spec : spec.split('/')[0];
      const isBuiltin = NODE_BUILTINS.has(name) || spec.startsWith('node:');
      const hit =
        forbidden.some((prefix) => spec === prefix || spec.startsWith(prefix)) ||
        (isBuiltin && forbidden.includes('node:'));
      if (hit) {
        context.report({
          node,
          messageId: 'package',
          data: {
            from: `src/${here.layer}`,
            name: spec,
            why: isBuiltin ? 'no Node built-ins in this layer' : 'not part of this layer',
          },
        });
      }
    }

    return {
      ImportDeclaration: (node) => check(node, node.source, isTypeOnly(node)),
      ExportNamedDeclaration: (node) => check(node, node.source, isTypeOnly(node)),
      ExportAllDeclaration: (node) => check(node, node.source, isTypeOnly(node)),
      ImportExpression: (node) => check(node, node.source, false),
      CallExpression: (node) => {
        if (node.callee.type === 'Identifier' && node.callee.name === 'require') {
          check(node, node.arguments[0], false);
        }
      },
    };
  },
};

export default { rules: { layers: layersRule } };
