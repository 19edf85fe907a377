// path-to-regexp 7.2.0 "Support array inputs for match": match() of an array
// of paths matches any of them. Exit 0 when it does not (the old behaviour),
// 1 when it does (the new one), 125 for anything else.
import { match } from "./src/index.js";

declare const process: { exit(code: number): never };

function check(): number {
  const one = match("/a/:id")("/a/7");
  if (!one || (one.params as Record<string, unknown>).id !== "7") {
    console.error("match('/a/:id') does not match '/a/7':", JSON.stringify(one));
    return 125;
  }
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const paths: any = ["/a/:id", "/b/:id"];
  const found = match(paths)("/b/1");
  console.log(JSON.stringify(found));
  if (found === false) return 0;
  if (found && found.path === "/b/1" && (found.params as Record<string, unknown>).id === "1") {
    return 1;
  }
  return 125;
}

let code = 125;
try {
  code = check();
} catch (err) {
  console.error(err instanceof Error ? err.stack : err);
  code = 125;
}
process.exit(code);
