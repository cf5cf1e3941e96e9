Condition builder: SocialGraph [condition]
Tree (Enter edits, ? help)       What DynamoDB receives [1-21 of 72] Tab: scroll
T  AND (2)                       Mode: condition   Action: PutItem   Table:
T    attribute_exists(PK)            SocialGraph
T    followerCount = 3           Item: PK=ACTOR#carol SK=PROFILE
Update rows (0)                  Paths (Tab picks): PK SK GSI1PK GSI1SK bio
                                     displayName followerCount followingCount
                                     joinedAt location location.city
                                     location.country luckyNumbers type verified
                                 Result
                                   Added to the transaction (2 actions)
                                 ConditionExpression
                                   attribute_exists(PK) AND followerCount =
                                     :followerCount
                                 ExpressionAttributeNames
                                   (none needed)
                                 ExpressionAttributeValues
                                   {":followerCount":{"N":"3"}}
                                 Verdict on the item stored under this key: TRUE
                                   [true ] attribute_exists(PK) AND followerCoun
                                     t = :followerCount -- AND: 2 of 2 true
                                     [true ] attribute_exists(PK) -- PK exists (
                                     S)

