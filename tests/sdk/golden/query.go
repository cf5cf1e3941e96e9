// Query with the AWS SDK for Go v2 (github.com/aws/aws-sdk-go-v2);
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
	out, err := client.Query(ctx, &dynamodb.QueryInput{
		TableName: aws.String("Sdk"),
		KeyConditionExpression: aws.String("PK = :p AND begins_with(SK, :s)"),
		FilterExpression: aws.String("n > :z"),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":p": &types.AttributeValueMemberS{Value: "p#1"},
			":s": &types.AttributeValueMemberS{Value: "a"},
			":z": &types.AttributeValueMemberN{Value: "0"},
		},
		Select: types.SelectCount,
		Limit: aws.Int32(10),
		ScanIndexForward: aws.Bool(false),
	})
	if err != nil {
		log.Fatal(err)
	}
	text, _ := json.MarshalIndent(out, "", "  ")
	fmt.Println(string(text))
}
