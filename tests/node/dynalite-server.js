'use strict';
/*
 * Starts dynalite (in memory) on 127.0.0.1 on a free port chosen by the
 * kernel, prints "PORT <n>" on stdout once listening, and runs until
 * killed. Tables become ACTIVE at once (no simulated CREATING delay).
 */
const dynalite = require('dynalite');

const server = dynalite({ createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
server.listen(Number(process.argv[2] || 0), '127.0.0.1', (err) => {
  if (err) {
    console.error('dynalite: ' + err.message);
    process.exit(1);
  }
  console.log('PORT ' + server.address().port);
});
// Exit with the shell that started us even if its trap is skipped.
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
