'use strict';
/*
 * Traffic for tests/record/run.sh: the samples' access patterns
 * (assets/patterns/*.json) sent with the AWS SDK for JavaScript v3 to
 * `ddbx serve --record`, each pattern many times with its own values,
 * plus a Scan with a filter and a few writes. Prints the values it sent,
 * one a line, for the caller to look for in the record.
 * Usage: node traffic.js PORT
 */
const path = require('path');
const ddb = require(path.join(__dirname, '../node/node_modules/@aws-sdk/client-dynamodb'));

const PORT = Number(process.argv[2]);
const c = new ddb.DynamoDBClient({
  endpoint: `http://127.0.0.1:${PORT}`,
  region: 'us-east-1',
  credentials: { accessKeyId: 'AKIDRECORDTEST', secretAccessKey: 'not-a-secret' },
  maxAttempts: 1,
});
const sent = new Set();
const S = (v) => { sent.add(v); return { S: v }; };

async function main() {
  // user-profile (SocialGraph.json): GetItem, one user far more than the rest
  for (let i = 0; i < 40; i++) {
    const who = i % 4 === 3 ? `ACTOR#user${i}` : 'ACTOR#alice';
    await c.send(new ddb.GetItemCommand({ TableName: 'SocialGraph', Key: { PK: S(who), SK: S('PROFILE') } }));
  }
  // who-follows-bob: the inverted GSI1, placeholders named differently by two callers
  for (let i = 0; i < 10; i++) {
    const name = i % 2 ? ':target' : ':t';
    await c.send(new ddb.QueryCommand({ TableName: 'SocialGraph', IndexName: 'GSI1',
      KeyConditionExpression: `GSI1PK = ${name}`, ExpressionAttributeValues: { [name]: S(`TARGET#bob${i % 3 ? '' : i}`) } }));
  }
  // who-does-alice-follow: begins_with on the sort key
  for (let i = 0; i < 10; i++)
    await c.send(new ddb.QueryCommand({ TableName: 'SocialGraph',
      KeyConditionExpression: 'PK = :actor AND begins_with(SK, :edge)',
      ExpressionAttributeValues: { ':actor': S('ACTOR#alice'), ':edge': S('TARGET#') } }));
  // a-students-courses and course-metadata (StudentCourses.json)
  for (let i = 0; i < 6; i++) {
    await c.send(new ddb.QueryCommand({ TableName: 'StudentCourses',
      KeyConditionExpression: '#pk = :student AND begins_with(#sk, :edge)',
      ExpressionAttributeNames: { '#pk': 'PK', '#sk': 'SK' },
      ExpressionAttributeValues: { ':student': S('STU#a91'), ':edge': S('ENROLL#') } }));
    await c.send(new ddb.GetItemCommand({ TableName: 'StudentCourses',
      Key: { PK: S('CRS#math204'), SK: S('META') } }));
  }
  // songs-by-artist (Music.json)
  for (let i = 0; i < 5; i++)
    await c.send(new ddb.QueryCommand({ TableName: 'Music', IndexName: 'GSI1',
      KeyConditionExpression: 'GSI1PK = :artist', ExpressionAttributeValues: { ':artist': S('Scooter') } }));
  // a Scan whose filter keeps few of the items it reads
  for (let i = 0; i < 3; i++)
    await c.send(new ddb.ScanCommand({ TableName: 'Music', FilterExpression: '#t = :ty',
      ExpressionAttributeNames: { '#t': 'type' }, ExpressionAttributeValues: { ':ty': S('details') } }));
  // writes: a put and an update with a secret-looking value
  await c.send(new ddb.PutItemCommand({ TableName: 'Music',
    Item: { PK: S('s#song-recorded'), SK: S('A'), title: S('Very Private Title 8841') } }));
  await c.send(new ddb.UpdateItemCommand({ TableName: 'Music', Key: { PK: S('s#song-recorded'), SK: S('A') },
    UpdateExpression: 'SET #c = :n', ExpressionAttributeNames: { '#c': 'comment' },
    ExpressionAttributeValues: { ':n': S('password hunter2-7731') } }));
  for (const v of sent) if (v.length >= 5) console.log(v);
}

main().catch((e) => { console.error(e); process.exit(1); });
