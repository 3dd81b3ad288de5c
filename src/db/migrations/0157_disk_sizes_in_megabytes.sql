-- NetBox 4.1 (#14692) counts a virtual machine's disk and a virtual disk's size in MB, 3.4 in GB.
-- Stored in MB from now on, so a 4.4 client's 1500 MB is kept as written; the 3.4 dialect shows and
-- takes GB (FieldDef.scaleIn). NetBox's own migration multiplied by 1000 too. The disk total
-- trigger (0136) sums sizes, so it keeps working in either unit.
alter table virtualization_virtualdisk disable trigger virtualization_virtualdisk_total;
update virtualization_virtualdisk set size = size * 1000;
alter table virtualization_virtualdisk enable trigger virtualization_virtualdisk_total;
update virtualization_virtualmachine set disk = disk * 1000 where disk is not null;
