/* wynot JavaScript case: mustache.js 2.0.0 -> 3.1.0, "Allow rendering
 * properties of primitive types that are not objects" (pull request #618):
 * {{name.length}} of the string "Moe" rendered nothing before and renders 3
 * in 3.0.0 (a dotted lookup that ends on a primitive's own property hits).
 * Exit 0: old behaviour; 1: new; 125: anything else, an exception included
 * (node exits 1 on an uncaught one, which would read as the new behaviour). */
'use strict';

function unresolved(why, err) {
  if (err !== undefined) {
    console.error(err && err.stack ? err.stack : String(err));
  }
  console.log('UNRESOLVED: ' + why);
  process.exit(125);
}

let Mustache;
try {
  Mustache = require('./mustache.js');
} catch (err) {
  unresolved('mustache.js does not load', err);
}

let plain, lengths;
try {
  plain = Mustache.render('Hi {{who}} & {{#items}}<{{n}}>{{/items}}{{^none}}!{{/none}}',
    { who: 'Al', items: [{ n: 1 }, { n: 2 }] });
  lengths = Mustache.render('{{#s}}{{name}}:{{name.length}};{{/s}}',
    { s: [{ name: 'Moe' }, { name: 'Larry' }] });
} catch (err) {
  unresolved('rendering threw', err);
}

if (plain !== 'Hi Al & <1><2>!') {
  unresolved('plain template renders as ' + JSON.stringify(plain));
}
if (lengths === 'Moe:;Larry:;') {
  console.log('PASS: a primitive\'s property renders nothing');
  process.exit(0);
}
if (lengths === 'Moe:3;Larry:5;') {
  console.log('FAIL: a primitive\'s property renders');
  process.exit(1);
}
unresolved('the lengths render as ' + JSON.stringify(lengths));
