// Registers tsx's loaders so TypeScript sources run without a build step: the ESM hooks for
// mmbot's own sources, and the CommonJS hooks for a user's strategy in a folder whose package.json
// has no "type": "module" (Node then reads its .ts as CommonJS, which the ESM hooks alone cannot load).
import { register } from 'tsx/esm/api';
import { register as registerCjs } from 'tsx/cjs/api';

register();
registerCjs();
