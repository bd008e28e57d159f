// GORM v1 (github.com/jinzhu/gorm) and the idtypes types: copy this file into your package. Each ID is a
// string in Go whose GormDataType names its type, so AutoMigrate writes the column as `timeid`; with
// `gorm:"primary_key;default:timeid_generate()"` an empty ID is left out of the INSERT and read back by
// RETURNING. database/sql reads and sends them as strings.
package main

import "github.com/jinzhu/gorm"

type TimeID string
type TBSL string
type UID11 string
type SCRU160 string

func (TimeID) GormDataType(gorm.Dialect) string  { return "timeid" }
func (TBSL) GormDataType(gorm.Dialect) string    { return "tbsl" }
func (UID11) GormDataType(gorm.Dialect) string   { return "uid11" }
func (SCRU160) GormDataType(gorm.Dialect) string { return "scru160" }
