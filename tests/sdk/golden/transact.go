// TransactWriteItems with the AWS SDK for Go v2 (github.com/aws/aws-sdk-go-v2);
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
	out, err := client.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{
		TransactItems: []types.TransactWriteItem{
			{
				Put: &types.Put{
					TableName: aws.String("Sdk"),
					Item: map[string]types.AttributeValue{
						"PK": &types.AttributeValueMemberS{Value: "p#3"},
						"SK": &types.AttributeValueMemberS{Value: "t"},
						"v": &types.AttributeValueMemberN{Value: "1"},
					},
				},
			},
			{
				Update: &types.Update{
					TableName: aws.String("Sdk"),
					Key: map[string]types.AttributeValue{
						"PK": &types.AttributeValueMemberS{Value: "p#1"},
						"SK": &types.AttributeValueMemberS{Value: "a"},
					},
					UpdateExpression: aws.String("REMOVE n"),
				},
			},
			{
				ConditionCheck: &types.ConditionCheck{
					TableName: aws.String("Sdk"),
					Key: map[string]types.AttributeValue{
						"PK": &types.AttributeValueMemberS{Value: "p#1"},
						"SK": &types.AttributeValueMemberS{Value: "types"},
					},
					ConditionExpression: aws.String("attribute_exists(PK)"),
				},
			},
			{
				Delete: &types.Delete{
					TableName: aws.String("Sdk"),
					Key: map[string]types.AttributeValue{
						"PK": &types.AttributeValueMemberS{Value: "p#2"},
						"SK": &types.AttributeValueMemberS{Value: "b"},
					},
				},
			},
		},
		ClientRequestToken: aws.String("ddbx-sdk-test-1"),
	})
	if err != nil {
		log.Fatal(err)
	}
	text, _ := json.MarshalIndent(out, "", "  ")
	fmt.Println(string(text))
}
