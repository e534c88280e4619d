/**
 * The layering rule: which part of the code may import which. Layers are folders: src/<layer>/...
 * for the app, and packages/<name>/src/... for the workspace packages, which are imported by name
 * (`@portaldesk/portal-api/...`, `@portaldesk/emulator`), never by a path into packages/.
 *
 *   portalApi  @portaldesk/portal-api (the REST model, filter language, service profiles):
 *              nothing of ours, no platform (no Node built-ins, no electron, no DOM libs)
 *   emulator   @portaldesk/emulator: portalApi and itself; never the app's src/
 *   shared     src/shared (ipc/ the contract, fieldValues/ the value rules): shared, portalApi;
 *              no platform
 *   main       shared, portalApi, main, emulator (the demo portal embeds the emulator)
 *   preload    only `import type` from shared; at run time only electron
 *   renderer   shared, portalApi (the filter builder, field types), renderer; never main,
 *              preload, emulator, Node built-ins or electron
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

const LAYERS = ['shared', 'main', 'preload', 'renderer'];

/** The workspace packages: folder under packages/, name, layer. */
const PACKAGES = [
  { folder: 'portal-api', name: '@portaldesk/portal-api', layer: 'portalApi' },
  { folder: 'emulator', name: '@portaldesk/emulator', layer: 'emulator' },
];

/** How a layer is written in messages. */
function where(layer) {
  const pkg = PACKAGES.find((p) => p.layer === layer);
  return pkg ? pkg.name : `src/${layer}`;
}

/** What each layer may import of ours, at run time and as types. */
const MAY_IMPORT = {
  portalApi: { runtime: ['portalApi'], types: ['portalApi'] },
  emulator: { runtime: ['portalApi', 'emulator'], types: ['portalApi', 'emulator'] },
  shared: { runtime: ['shared', 'portalApi'], types: ['shared', 'portalApi'] },
  main: {
    runtime: ['shared', 'portalApi', 'main', 'emulator'],
    types: ['shared', 'portalApi', 'main', 'emulator'],
  },
  preload: { runtime: ['preload'], types: ['shared', 'preload'] },
  renderer: {
    runtime: ['shared', 'portalApi', 'renderer'],
    types: ['shared', 'portalApi', 'renderer'],
  },
};

/** Packages a layer may not use at all (bare specifiers), checked by prefix. */
const FORBIDDEN_PACKAGES = {
  portalApi: ['electron', 'react', 'react-dom', 'better-sqlite3', 'ws', 'zustand', 'node:'],
  shared: ['electron', 'react', 'react-dom', 'better-sqlite3', 'ws', 'zustand', 'node:'],
  emulator: ['electron', 'react', 'react-dom', 'zustand'],
  preload: ['node:', 'better-sqlite3', 'ws', 'react', 'zod'],
  renderer: ['electron', 'better-sqlite3', 'ws', 'node:'],
  main: ['react', 'react-dom', 'zustand'],
};

/** Files outside src/ a layer may read: the app's name and version, and the window icon. */
const OUTSIDE_SRC = { main: ['package.json', path.join('resources', 'icon.png')] };

const NODE_BUILTINS = new Set(builtinModules);
const packageLayerNames = new Set(PACKAGES.map((p) => p.layer));

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

/**
 * The layer of a file, with `root` (the folder holding src/<layer>, for the renderer's rooms and
 * files outside src/), `home` (the folder a relative import may not leave: a package's own) and
 * `test` (a package's own tests, which may use any third-party package).
 */
function layerOf(file) {
  const parts = path.normalize(file).split(path.sep);
  const packages = parts.findIndex(
    (part, i) =>
      part === 'packages' &&
      (parts[i + 2] === 'src' || parts[i + 2] === 'test') &&
      PACKAGES.some((p) => p.folder === parts[i + 1]),
  );
  if (packages !== -1) {
    // A package's tests belong to it too: they may use test tools, but not reach out of it.
    const pkg = PACKAGES.find((p) => p.folder === parts[packages + 1]);
    const home = parts.slice(0, packages + 2).join(path.sep);
    const test = parts[packages + 2] === 'test';
    return { layer: pkg.layer, root: parts.slice(0, packages).join(path.sep), home, test };
  }
  // The first `src/<layer>`: the renderer has a src/ of its own inside (src/renderer/src/...).
  const src = parts.findIndex((part, i) => part === 'src' && LAYERS.includes(parts[i + 1]));
  if (src === -1) return null;
  return {
    layer: parts[src + 1],
    root: parts.slice(0, src + 1).join(path.sep),
    home: null,
    test: false,
  };
}

/** The layer a bare specifier names when it is one of our packages, else null. */
function packageLayer(spec) {
  const pkg = PACKAGES.find((p) => spec === p.name || spec.startsWith(`${p.name}/`));
  return pkg ? pkg.layer : null;
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
    docs: {
      description: 'Keep portal-api, emulator, shared, main, preload and renderer in their lanes.',
    },
    schema: [],
    messages: {
      layer: '{{from}} may not import {{what}} from {{to}} ({{why}}).',
      byName: '{{from}} imports {{name}} by a path; import it by its name ({{name}}/...).',
      leavesPackage:
        '{{from}} may not reach outside its package ({{to}}); a package imports only packages, by name.',
      package: '{{from}} may not import "{{name}}" ({{why}}).',
      room: 'src/renderer/src/{{from}} may not import from src/renderer/src/{{to}} (imports run from the frame down; allowed: {{allowed}}).',
    },
  },
  create(context) {
    const file = context.filename ?? context.getFilename();
    const here = layerOf(file);
    if (!here) return {};
    const rules = MAY_IMPORT[here.layer];

    function reportLayer(node, to, typeOnly) {
      const allowed = typeOnly ? rules.types : rules.runtime;
      if (allowed.includes(to)) return;
      context.report({
        node,
        messageId: 'layer',
        data: {
          from: where(here.layer),
          what: typeOnly ? 'types' : 'code',
          to: LAYERS.includes(to) || packageLayerNames.has(to) ? where(to) : to,
          why: `allowed: ${allowed.map(where).join(', ') || 'nothing'}`,
        },
      });
    }

    function check(node, source, typeOnly) {
      if (!source || typeof source.value !== 'string') return;
      const spec = source.value;
      if (spec.startsWith('.')) {
        // Vite import suffixes (`?raw`, `?asset`) name the same file.
        const resolved = path.resolve(path.dirname(file), spec.replace(/\?.*$/, ''));
        if (here.home && path.relative(here.home, resolved).startsWith('..')) {
          context.report({
            node,
            messageId: 'leavesPackage',
            data: { from: where(here.layer), to: path.relative(here.root, resolved) },
          });
          return;
        }
        const target = layerOf(resolved);
        if (
          !target &&
          (OUTSIDE_SRC[here.layer] ?? []).includes(path.relative(path.dirname(here.root), resolved))
        ) {
          return;
        }
        if (target?.home && !here.home) {
          context.report({
            node,
            messageId: 'byName',
            data: { from: where(here.layer), name: where(target.layer) },
          });
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
        reportLayer(node, to, typeOnly);
        return;
      }
      const ours = packageLayer(spec);
      if (ours) {
        reportLayer(node, ours, typeOnly);
        return;
      }
      if (typeOnly || here.test) return;
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
            from: where(here.layer),
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
