// Scan with the AWS SDK for Go v2 (github.com/aws/aws-sdk-go-v2);
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
	out, err := client.Scan(ctx, &dynamodb.ScanInput{
		TableName: aws.String("Sdk"),
		Limit: aws.Int32(5),
		Segment: aws.Int32(0),
		TotalSegments: aws.Int32(2),
	})
	if err != nil {
		log.Fatal(err)
	}
	text, _ := json.MarshalIndent(out, "", "  ")
	fmt.Println(string(text))
}
