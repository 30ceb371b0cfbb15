// `ddbgen/ts-plugin` as tsserver resolves it: tsserver looks plugins up with Node10 resolution (no
// package "exports"), so this folder is where the name leads; it is the compiled plugin (CommonJS).
module.exports = require('../dist/generator/editor/ts-plugin.cjs');
