// wynot Rust case: strsim 0.10.0 -> 0.11.0, "Fix transposition counting in
// Jaro and Jaro-Winkler" (CHANGELOG.md, 0.11.0): jaro("abcdef", "abcfed") was
// 0.888... (two transpositions counted, one for each out-of-order match) and
// is 0.944... in 0.11.0 (half the matched characters out of place: one).
// Exit 0: old behaviour; 1: new; 125: anything else (a panic included: the
// program catches it, since an uncaught panic exits 101).
extern crate strsim;

use std::panic;
use std::process;

fn near(x: f64, y: f64) -> bool {
    (x - y).abs() < 1e-4
}

fn main() {
    let got = panic::catch_unwind(|| {
        (
            strsim::jaro("martha", "marhta"),
            strsim::levenshtein("kitten", "sitting"),
            strsim::jaro("abcdef", "abcfed"),
        )
    });
    let (plain, lev, moved) = match got {
        Ok(values) => values,
        Err(_) => {
            println!("UNRESOLVED: strsim panicked");
            process::exit(125);
        }
    };
    if !near(plain, 0.944444) || lev != 3 {
        println!("UNRESOLVED: jaro(martha, marhta) = {}, levenshtein = {}", plain, lev);
        process::exit(125);
    }
    if near(moved, 0.888889) {
        println!("PASS: jaro(abcdef, abcfed) = {} (two transpositions)", moved);
        process::exit(0);
    }
    if near(moved, 0.944444) {
        println!("FAIL: jaro(abcdef, abcfed) = {} (one transposition)", moved);
        process::exit(1);
    }
    println!("UNRESOLVED: jaro(abcdef, abcfed) = {}", moved);
    process::exit(125);
}
