/* wynot JavaScript case: node-semver 7.6.1 -> 7.8.5, "strip build metadata
 * before comparator trimming" (7.8.1, pull request #869): a range whose
 * build metadata is longer than 250 characters (the bound of the library's
 * "safe" regular expressions) was refused with a TypeError ("Invalid
 * comparator") before, and parses in 7.8.1, the build metadata dropped:
 * ~1.2.3+aaa...a (251 a's) is >=1.2.3 <1.3.0-0.
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

let semver;
try {
  semver = require('./index.js');
} catch (err) {
  unresolved('index.js does not load', err);
}

let plain, shortBuild, inRange, valid;
try {
  plain = new semver.Range('^1.2.3 || 2.x').range;
  shortBuild = new semver.Range('~1.2.3+build.5').range;
  inRange = semver.satisfies('1.2.5', '~1.2.3+build.5');
  valid = semver.valid('1.2.3-beta.1+sha.' + 'f'.repeat(40));
} catch (err) {
  unresolved('plain ranges threw', err);
}
if (plain !== '>=1.2.3 <2.0.0-0||>=2.0.0 <3.0.0-0') {
  unresolved('^1.2.3 || 2.x parses as ' + JSON.stringify(plain));
}
if (shortBuild !== '>=1.2.3 <1.3.0-0' || inRange !== true) {
  unresolved('~1.2.3+build.5 parses as ' + JSON.stringify(shortBuild) + ', satisfies ' + inRange);
}
if (valid !== '1.2.3-beta.1') {
  unresolved('valid() of a version with build metadata gives ' + JSON.stringify(valid));
}

const longRange = '~1.2.3+' + 'a'.repeat(251);
let parsed;
try {
  parsed = new semver.Range(longRange).range;
} catch (err) {
  // refused, whatever part of the metadata the message shows (GOOD shows it
  // all; with the diff but the fix, parseComparator's bounded strip leaves
  // ~1.2.3a, the bleed the fix is about)
  if (err instanceof TypeError && /^Invalid (comparator|SemVer Range): ~1\.2\.3/.test(err.message)) {
    console.log('PASS: a range with 251 characters of build metadata is refused');
    process.exit(0);
  }
  unresolved('the long range threw something else', err);
}
if (parsed === '>=1.2.3 <1.3.0-0') {
  console.log('FAIL: a range with 251 characters of build metadata parses, the metadata dropped');
  process.exit(1);
}
unresolved('the long range parses as ' + JSON.stringify(parsed).slice(0, 200));
