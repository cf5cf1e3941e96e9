'use strict';
/*
 * Replays `ddbx api` request lines ({"Operation":...,"Input":{...}}) from
 * a file to a DynamoDB endpoint on 127.0.0.1:PORT (dynalite), in order.
 * Exits 1 on the first error answer or transport failure.
 *   node load.js PORT FILE.jsonl
 */
const fs = require('fs');
const path = require('path');
const { HttpClient } = require(path.join(__dirname, '..', 'node', 'ddb.js'));

async function main() {
  const [port, file] = process.argv.slice(2);
  const client = new HttpClient(Number(port));
  const lines = fs.readFileSync(file, 'utf8').split('\n').filter((l) => l.trim());
  for (const line of lines) {
    const { Operation, Input } = JSON.parse(line);
    const r = await client.call(Operation, Input);
    if (r.Error) {
      console.error(`${Operation}: ${r.Error.Code}: ${r.Error.Message}`);
      process.exit(1);
    }
  }
  client.close();
}
main().catch((e) => {
  console.error(e.message);
  process.exit(1);
});
