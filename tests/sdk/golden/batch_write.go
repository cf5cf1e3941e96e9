// BatchWriteItem with the AWS SDK for Go v2 (github.com/aws/aws-sdk-go-v2);
// region and credentials come from the environment, as for the aws
// command line.
package main

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"log"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

func b64(s string) []byte {
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		panic(err)
	}
	return b
}

func main() {
	ctx := context.Background()
	cfg, err := config.LoadDefaultConfig(ctx)
	if err != nil {
		log.Fatal(err)
	}
	client := dynamodb.NewFromConfig(cfg)
	out, err := client.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{
		RequestItems: map[string][]types.WriteRequest{
			"Sdk": {
				{
					PutRequest: &types.PutRequest{
						Item: map[string]types.AttributeValue{
							"PK": &types.AttributeValueMemberS{Value: "p#4"},
							"SK": &types.AttributeValueMemberS{Value: "w"},
							"bin": &types.AttributeValueMemberB{Value: b64("3q2+7w==")},
						},
					},
				},
				{
					DeleteRequest: &types.DeleteRequest{
						Key: map[string]types.AttributeValue{
							"PK": &types.AttributeValueMemberS{Value: "p#3"},
							"SK": &types.AttributeValueMemberS{Value: "t"},
						},
					},
				},
			},
		},
	})
	if err != nil {
		log.Fatal(err)
	}
	text, _ := json.MarshalIndent(out, "", "  ")
	fmt.Println(string(text))
}
