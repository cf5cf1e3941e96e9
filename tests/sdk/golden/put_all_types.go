// PutItem with the AWS SDK for Go v2 (github.com/aws/aws-sdk-go-v2);
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
	out, err := client.PutItem(ctx, &dynamodb.PutItemInput{
		TableName: aws.String("Sdk"),
		Item: map[string]types.AttributeValue{
			"PK": &types.AttributeValueMemberS{Value: "p#1"},
			"SK": &types.AttributeValueMemberS{Value: "types"},
			"b": &types.AttributeValueMemberB{Value: b64("AAH/")},
			"bs": &types.AttributeValueMemberBS{Value: [][]byte{b64("AA=="), b64("/w==")}},
			"f": &types.AttributeValueMemberBOOL{Value: false},
			"l": &types.AttributeValueMemberL{Value: []types.AttributeValue{&types.AttributeValueMemberS{Value: "x"}, &types.AttributeValueMemberN{Value: "1"}, &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{
				"k": &types.AttributeValueMemberS{Value: "v"},
			}}}},
			"m": &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{
				"e": &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{}},
				"inner key": &types.AttributeValueMemberL{Value: []types.AttributeValue{}},
			}},
			"n": &types.AttributeValueMemberN{Value: "-12.5"},
			"ns": &types.AttributeValueMemberNS{Value: []string{"1", "2.5"}},
			"s": &types.AttributeValueMemberS{Value: "\"quoted\" \u0001 한글"},
			"ss": &types.AttributeValueMemberSS{Value: []string{"a", "b"}},
			"t": &types.AttributeValueMemberBOOL{Value: true},
			"z": &types.AttributeValueMemberNULL{Value: true},
		},
		ConditionExpression: aws.String("attribute_not_exists(#k)"),
		ExpressionAttributeNames: map[string]string{
			"#k": "PK",
		},
	})
	if err != nil {
		log.Fatal(err)
	}
	text, _ := json.MarshalIndent(out, "", "  ")
	fmt.Println(string(text))
}
