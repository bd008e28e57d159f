<?php
// test/php/orm.php's entities (Doctrine ORM attributes): one per type, keyed the ways an application maps
// them: the type's generator (CUSTOM), and the ORM's own IDENTITY, SEQUENCE and AUTO, which OrmListener
// turns to the generator. Book's author is a foreign key to a tbsl ID.
declare(strict_types=1);

namespace IdtypesTest;

use Doctrine\ORM\Mapping as ORM;
use Idtypes\Doctrine\TbslGenerator;
use Idtypes\Doctrine\TimeidGenerator;

#[ORM\Entity, ORM\Table(name: 'authors')]
class Author
{
    #[ORM\Id, ORM\Column(type: 'tbsl'), ORM\GeneratedValue(strategy: 'CUSTOM'), ORM\CustomIdGenerator(class: TbslGenerator::class)]
    public ?string $id = null;

    #[ORM\Column(type: 'text')]
    public string $name = '';
}

#[ORM\Entity, ORM\Table(name: 'books')]
class Book
{
    #[ORM\Id, ORM\Column(type: 'timeid'), ORM\GeneratedValue(strategy: 'CUSTOM'), ORM\CustomIdGenerator(class: TimeidGenerator::class)]
    public ?string $id = null;

    #[ORM\ManyToOne(targetEntity: Author::class), ORM\JoinColumn(nullable: false)]
    public ?Author $author = null;
}

#[ORM\Entity, ORM\Table(name: 'by_identity')]
class ByIdentity
{
    #[ORM\Id, ORM\Column(type: 'uid11'), ORM\GeneratedValue(strategy: 'IDENTITY')]
    public ?string $id = null;
}

#[ORM\Entity, ORM\Table(name: 'by_auto')]
class ByAuto
{
    #[ORM\Id, ORM\Column(type: 'scru160'), ORM\GeneratedValue]
    public ?string $id = null;
}

#[ORM\Entity, ORM\Table(name: 'by_sequence')]
class BySequence
{
    #[ORM\Id, ORM\Column(type: 'tbsl'), ORM\GeneratedValue(strategy: 'SEQUENCE')]
    public ?string $id = null;
}
