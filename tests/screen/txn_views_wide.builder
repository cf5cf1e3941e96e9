Condition builder: SocialGraph [condition]
Tree (Enter edits, ? help)                       What DynamoDB receives [1-32 of 52] Tab: scroll
T  AND (2)                                       Mode: condition   Action: PutItem   Table: SocialGraph
T    attribute_exists(PK)                        Item: PK=ACTOR#carol SK=PROFILE
T    followerCount = 3                           Paths (Tab picks): PK SK GSI1PK GSI1SK bio displayName followerCount
Update rows (0)                                      followingCount joinedAt location location.city location.country
                                                     luckyNumbers type verified
                                                 Result
                                                   Added to the transaction (2 actions)
                                                 ConditionExpression
                                                   attribute_exists(PK) AND followerCount = :followerCount
                                                 ExpressionAttributeNames
                                                   (none needed)
                                                 ExpressionAttributeValues
                                                   {":followerCount":{"N":"3"}}
                                                 Verdict on the item stored under this key: TRUE
                                                   [true ] attribute_exists(PK) AND followerCount = :followerCount -- AN
                                                     D: 2 of 2 true
                                                     [true ] attribute_exists(PK) -- PK exists (S)
                                                     [true ] followerCount = :followerCount -- 3 = 3
                                                 Request (PutItem)
                                                   {"TableName":"SocialGraph","Item":{"PK":{"S":"ACTOR#carol"},"SK":{"S"
                                                     :"PROFILE"},"bio":{"S":"Product designer · Hà Nội"},"displayName":{
                                                     "S":"Carol Nguyễn"},"followerCount":{"N":"3"},"followingCount":{"N"
                                                     :"2"},"joinedAt":{"S":"2021-02-14T07:30:00Z"},"location":{"M":{"cit
                                                     y":{"S":"Hà Nội"},"country":{"S":"VN"}}},"luckyNumbers":{"NS":["1.5
                                                     ","3","7","21"]},"type":{"S":"user"},"verified":{"BOOL":true}},"Con
                                                     ditionExpression":"attribute_exists(PK) AND followerCount = :follow
                                                     erCount","ExpressionAttributeValues":{":followerCount":{"N":"3"}},"
                                                     ReturnValuesOnConditionCheckFailure":"ALL_OLD"}
                                                 aws CLI
                                                   aws dynamodb put-item --table-name SocialGraph --item
                                                     '{"PK":{"S":"ACTOR#carol"},"SK":{"S":"PROFILE"},"bio":{"S":"Product
                                                     designer · Hà Nội"},"displayName":{"S":"Carol

