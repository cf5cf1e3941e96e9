// UpdateItem with the AWS SDK for Go v2 (github.com/aws/aws-sdk-go-v2);
// region and credentials come from the environment, as for the aws
// command line.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

func main() {
	ctx := context.Background()
	cfg, err := config.LoadDefaultConfig(ctx)
	if err != nil {
		log.Fatal(err)
	}
	client := dynamodb.NewFromConfig(cfg)
	out, err := client.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName: aws.String("Sdk"),
		Key: map[string]types.AttributeValue{
			"PK": &types.AttributeValueMemberS{Value: "p#1"},
			"SK": &types.AttributeValueMemberS{Value: "a"},
		},
		UpdateExpression: aws.String("SET #c = :c, n = n + :one"),
		ConditionExpression: aws.String("#c = :old"),
		ExpressionAttributeNames: map[string]string{
			"#c": "city",
		},
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":c": &types.AttributeValueMemberS{Value: "Jeju"},
			":old": &types.AttributeValueMemberS{Value: "Seoul"},
			":one": &types.AttributeValueMemberN{Value: "1"},
		},
		ReturnValues: types.ReturnValueAllNew,
		ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal,
	})
	if err != nil {
		log.Fatal(err)
	}
	text, _ := json.MarshalIndent(out, "", "  ")
	fmt.Println(string(text))
}
