/* wynot JavaScript case: marked 0.3.19 -> 0.7.0, "move fences to normal"
 * (pull request #1511): a fenced code block rendered with gfm: false was a
 * paragraph with inline code before (fences belonged to the GFM grammar) and
 * is a code block in 0.7.0 (fences are CommonMark).
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

let marked;
try {
  marked = require('./lib/marked.js');
} catch (err) {
  unresolved('lib/marked.js does not load', err);
}

let plain, fenced;
try {
  plain = marked('# Hi\n\n*a* [l](http://x) `c`\n\n- one\n- two\n');
  fenced = marked('```\ncode\n```\n', { gfm: false });
} catch (err) {
  unresolved('rendering threw', err);
}

const expected = '<h1 id="hi">Hi</h1>\n<p><em>a</em> <a href="http://x">l</a> <code>c</code></p>\n'
  + '<ul>\n<li>one</li>\n<li>two</li>\n</ul>\n';
if (plain !== expected) {
  unresolved('plain markdown renders as ' + JSON.stringify(plain));
}
if (fenced === '<p><code>code</code></p>\n') {
  console.log('PASS: without gfm a fence is inline code in a paragraph');
  process.exit(0);
}
if (/^<pre><code>code\n?<\/code><\/pre>\n?$/.test(fenced)) {
  console.log('FAIL: without gfm a fence is a code block');
  process.exit(1);
}
unresolved('a fence without gfm renders as ' + JSON.stringify(fenced));
